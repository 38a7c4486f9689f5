import type { Consumer } from '@nats-io/jetstream';
import { SeriesCache, counter, gauge, histogram, metricsEnabled } from '@platform/common';
import { BusError, isRemoteError } from './bus.errors.js';
import { currentNamespace, streamPrefix } from './namespace.js';

/**
 * The messaging layer's series: NATS requests by subject and outcome, and the JetStream work
 * queues' deliveries, redeliveries and backlog. Subjects and queues are labels only as their
 * templates (`subjectTemplate`), never with the namespace or an id in them.
 */

const natsRequestSeconds = histogram({
  name: 'nats_request_duration_seconds',
  help: 'Core NATS requests this process sent (Bus.request), by subject template and outcome: ok, rejected (a 4xx answer), failed (a 5xx answer), timeout, unavailable',
  labelNames: ['subject', 'outcome'] as const,
});

/** A subject as a label: tokens that look like ids (UUIDs, numbers, long tokens) become `*`. */
export function subjectTemplate(subject: string): string {
  if (!/[0-9]/.test(subject)) return subject;
  return subject
    .split('.')
    .map((token) => (/^[0-9a-f]{8}-[0-9a-f-]{27}$/i.test(token) || /\d{3,}/.test(token) || token.length > 32 ? '*' : token))
    .join('.');
}

const requestSeries = new SeriesCache(([subject, outcome]) => natsRequestSeconds.labels(subjectTemplate(subject), outcome));

/** How a request ended, as its outcome label. */
export function requestOutcome(error: unknown): string {
  if (!(error instanceof BusError)) return 'unavailable';
  if (error.code !== 'remote') return error.code;
  return (error.remote?.status ?? 500) < 500 ? 'rejected' : 'failed';
}

/** Records one request: `startedAt` from performance.now() when it was sent. */
export function natsRequestDone(subject: string, outcome: string, startedAt: number): void {
  if (metricsEnabled()) requestSeries.get(subject, outcome).observe((performance.now() - startedAt) / 1000);
}

const natsHandledSeconds = histogram({
  name: 'nats_handled_duration_seconds',
  help: "Core NATS requests and events this process handled (its @MessagePattern/@EventPattern handlers), by the subscription's subject pattern and outcome: ok, rejected (answered a 4xx), failed (answered a 5xx or threw)",
  labelNames: ['subject', 'outcome'] as const,
});

const handledSeries = new SeriesCache(([subject, outcome]) => natsHandledSeconds.labels(subject, outcome));

/** How a handler ended, from the error it answered (a RemoteError from the RPC filter) or threw. */
export function handledOutcome(error: unknown): 'rejected' | 'failed' {
  return isRemoteError(error) && error.status < 500 ? 'rejected' : 'failed';
}

/**
 * Records one handled message. `pattern` is the subscription's subject pattern without the
 * namespace (what the handler was declared with, `account.keys.verify`, `trigger.events.>`),
 * never the message's own subject, which may carry ids.
 */
export function natsHandled(pattern: string, outcome: 'ok' | 'rejected' | 'failed', startedAt: number): void {
  if (metricsEnabled()) handledSeries.get(pattern, outcome).observe((performance.now() - startedAt) / 1000);
}

const deliveries = counter({
  name: 'jetstream_deliveries_total',
  help: 'Work items this process took from a JetStream queue, by queue and outcome: ack, retry (redelivered after a backoff), dead_letter',
  labelNames: ['queue', 'outcome'] as const,
});

const redeliveries = counter({
  name: 'jetstream_redeliveries_total',
  help: 'Work items taken again after an earlier delivery of them (a failed attempt, a retry or a worker lost mid-item), by queue',
  labelNames: ['queue'] as const,
});

const workItemSeconds = histogram({
  name: 'jetstream_work_item_duration_seconds',
  help: 'Time a worker of this process spent on one JetStream work item, from taking it to its outcome: ack, retry, dead_letter; by queue',
  labelNames: ['queue', 'outcome'] as const,
});

const deliverySeries = new SeriesCache(([queue, outcome]) => deliveries.labels(queue, outcome));
const workItemSeries = new SeriesCache(([queue, outcome]) => workItemSeconds.labels(queue, outcome));
const redeliverySeries = new SeriesCache(([queue]) => redeliveries.labels(queue));

/** The queue's label: its stream's name without this platform's namespace (`RUN_WORK`). */
export function queueLabel(stream: string): string {
  const ns = currentNamespace();
  const prefix = ns ? streamPrefix(ns) : '';
  return prefix && stream.startsWith(prefix) ? stream.slice(prefix.length) : stream;
}

/** One work item handled: `deliveryCount` is the item's (1 on its first delivery), `startedAt` from performance.now() when it was taken. */
export function workItemDone(queue: string, outcome: 'ack' | 'retry' | 'dead_letter', deliveryCount: number, startedAt: number): void {
  if (!metricsEnabled()) return;
  deliverySeries.get(queue, outcome).inc();
  workItemSeries.get(queue, outcome).observe((performance.now() - startedAt) / 1000);
  if (deliveryCount > 1) redeliverySeries.get(queue).inc();
}

/** Consumers this process pulls from; their backlog is asked of JetStream at each scrape. */
const consumers = new Map<string, Consumer>();

/** A consumer's state, asked at most this long: a scrape never hangs on a NATS that is away. */
const INFO_TIMEOUT_MS = 2000;

interface Backlog {
  num_pending: number;
  num_ack_pending: number;
  num_redelivered: number;
}

async function backlogs(): Promise<[string, Backlog][]> {
  const entries = await Promise.all(
    [...consumers].map(async ([queue, consumer]): Promise<[string, Backlog] | undefined> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), INFO_TIMEOUT_MS)));
      try {
        const info = await Promise.race([consumer.info(), timeout]);
        return info && [queue, info];
      } catch {
        return undefined;
      } finally {
        clearTimeout(timer);
      }
    }),
  );
  return entries.filter((e): e is [string, Backlog] => e !== undefined);
}

/** One scrape asks each consumer once, whichever of the backlog gauges is collected first. */
let asked: Promise<[string, Backlog][]> | undefined;
function backlogsOfThisScrape(): Promise<[string, Backlog][]> {
  asked ??= backlogs().finally(() => setTimeout(() => (asked = undefined), 100).unref());
  return asked;
}

const BACKLOG = [
  ['jetstream_consumer_pending', 'Items in the queue not yet delivered to any worker (the consumer lag), by queue', 'num_pending'],
  ['jetstream_consumer_ack_pending', 'Items delivered and not yet acknowledged (being worked on, or held by a worker that died), by queue', 'num_ack_pending'],
  ['jetstream_consumer_redelivered', 'Items delivered more than once and still unacknowledged, by queue', 'num_redelivered'],
] as const;

for (const [name, help, field] of BACKLOG) {
  gauge({
    name,
    help: `${help}; every replica reports the shared consumer: aggregate with max, not sum`,
    labelNames: ['queue'] as const,
    aggregator: 'max',
    async collect() {
      this.reset();
      for (const [queue, info] of await backlogsOfThisScrape()) this.set({ queue }, info[field]);
    },
  });
}

/** Reports the consumer's backlog while it runs; answers the function that stops it. */
export function watchConsumer(queue: string, consumer: Consumer): () => void {
  consumers.set(queue, consumer);
  return () => consumers.delete(queue);
}
