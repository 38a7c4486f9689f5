import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../config/webhook.config.js';
import { DeliveryStarter } from './delivery-starter.js';
import { deliveriesRepository } from './webhooks.repository.js';

/**
 * Starts the runs of accepted deliveries that nobody started: the replica that accepted them
 * crashed, or the run service was down or slow. Each delivery carries the id of its run, so a
 * start that was made but not recorded is answered with the same run, never a second one.
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
    const pending = await this.system.run(
      'webhook reconciler: accepted deliveries without a run',
      (m) => deliveriesRepository.unstarted(m, this.config.WEBHOOK_START_RETRY_MS, 500),
      'debug',
    );
    // This replica's own queue is draining already.
    for (const delivery of pending) if (!this.starter.isHeld(delivery.id)) this.starter.enqueue(delivery);
  }
}
