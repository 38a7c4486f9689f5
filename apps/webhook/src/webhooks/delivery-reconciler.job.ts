import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../config/webhook.config.js';
import { DeliveryStarter } from './delivery-starter.js';
import { deliveriesRepository } from './webhooks.repository.js';

/** 86400000 → "24 h". */
const duration = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * Starts the runs of accepted deliveries that nobody started: the replica that accepted them
 * crashed, or the run service was down or slow. Each delivery carries the id of its run, so a
 * start that was made but not recorded is answered with the same run, never a second one.
 * Retrying ends: a delivery still unstarted after WEBHOOK_START_GIVE_UP_MS is recorded as failed
 * (and one whose starts kept failing, after WEBHOOK_START_MAX_ATTEMPTS: see DeliveryStarter).
 */
@Injectable()
export class DeliveryReconcilerJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly starter: DeliveryStarter,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
  ) {
    super({ name: 'DeliveryReconcilerJob', intervalMs: 2000, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const maxAge = this.config.WEBHOOK_START_GIVE_UP_MS;
    const given = await this.system.statement(
      'webhook reconciler: give up on deliveries unstarted too long',
      (m) => deliveriesRepository.giveUpUnstarted(m, maxAge, `run not started within ${duration(maxAge)}: the start did not get through to the run service`),
      'debug',
    );
    this.repaired('given_up', given);
    if (given) this.logger.warn(`${given} accepted deliveries recorded as failed: their runs did not start within WEBHOOK_START_GIVE_UP_MS`);
    const pending = await this.system.run(
      'webhook reconciler: accepted deliveries without a run',
      (m) => deliveriesRepository.unstarted(m, this.config.WEBHOOK_START_RETRY_MS, 500),
      'debug',
    );
    // This replica's own queue is draining already.
    const retried = pending.filter((delivery) => !this.starter.isHeld(delivery.id));
    for (const delivery of retried) this.starter.enqueue(delivery);
    this.repaired('start_retried', retried.length);
  }
}
