import { Inject, Injectable } from '@nestjs/common';
import type { ServiceConfig } from '@platform/common';
import { PeriodicJob } from '../jobs/periodic-job.js';
import { SERVICE_CONFIG } from '../platform/platform.tokens.js';
import { UsageOutbox } from './usage-outbox.js';

/**
 * Publishes the usage facts whose publish after the commit did not happen or failed (NATS down,
 * a crash in between), every USAGE_OUTBOX_RELAY_MS; facts therefore reach the subscription
 * service at most USAGE_OUTBOX_GRACE_MS plus one interval after NATS is back.
 */
@Injectable()
export class UsageOutboxRelayJob extends PeriodicJob {
  constructor(
    private readonly outbox: UsageOutbox,
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
  ) {
    super({ name: 'UsageOutboxRelayJob', intervalMs: config.USAGE_OUTBOX_RELAY_MS, runAtStart: true });
  }

  protected pass(): Promise<number> {
    return this.outbox.relay();
  }
}
