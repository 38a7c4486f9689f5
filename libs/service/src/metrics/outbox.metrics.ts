import { gauge } from '@platform/common';

export interface OutboxBacklog {
  facts: number;
  oldestSeconds: number;
  /** Facts the relay gave up (refused for good, or too old): kept for an operator, never sent. */
  failed: number;
}

/** The service's usage outbox, read at each scrape (one small query); one per process. */
let reader: (() => Promise<OutboxBacklog>) | undefined;
let reading: Promise<OutboxBacklog | undefined> | undefined;

/** One query per scrape, whichever gauge asks first. */
function backlog(): Promise<OutboxBacklog | undefined> {
  reading ??= (reader ? reader().catch(() => undefined) : Promise.resolve(undefined)).finally(() => setTimeout(() => (reading = undefined), 100).unref());
  return reading;
}

const GAUGES: { name: string; help: string; value: (backlog: OutboxBacklog) => number }[] = [
  {
    name: 'usage_outbox_backlog',
    help: "Usage facts in the service's outbox not yet published to the subscription service (normally a handful, each for a few ms)",
    value: (b) => b.facts,
  },
  {
    name: 'usage_outbox_oldest_seconds',
    help: 'Age of the oldest fact in the usage outbox; above USAGE_OUTBOX_GRACE_MS plus a relay interval, publishing is failing (NATS, JetStream)',
    value: (b) => b.oldestSeconds,
  },
  {
    name: 'usage_outbox_failed',
    help: "Usage facts the relay gave up (NATS refused them for good, or still failing USAGE_OUTBOX_GIVE_UP_MS after they were written): kept in the service's usage_outbox with publish_failed_at, never billed unless an operator acts",
    value: (b) => b.failed,
  },
];

for (const { name, help, value } of GAUGES) {
  gauge({
    name,
    help,
    aggregator: 'max',
    async collect() {
      const now = await backlog();
      if (now) this.set(value(now));
    },
  });
}

/** The usage outbox reports its backlog in `usage_outbox_*`. */
export function watchOutboxBacklog(read: () => Promise<OutboxBacklog>): void {
  reader = read;
}
