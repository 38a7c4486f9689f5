import { Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { DeliveriesService } from './deliveries.service.js';
import { deliveriesRepository } from './webhooks.repository.js';

/** Accepted deliveries older than this whose run has not started are started by the reconciler. */
const GRACE_MS = 3000;

/**
 * Starts the runs of accepted deliveries that the request path could not start (run service down
 * or slow). The idempotency key is the delivery's, so a start the request path did make but
 * could not record is answered with the same run, never a second one.
 */
@Injectable()
export class DeliveryReconcilerJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly deliveries: DeliveriesService,
  ) {
    super({ name: 'DeliveryReconcilerJob', intervalMs: 2000, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const pending = await this.system.run(
      'webhook reconciler: accepted deliveries without a run',
      (m) => deliveriesRepository.unstarted(m, GRACE_MS, 200),
      'debug',
    );
    for (const delivery of pending) {
      await this.deliveries.startAndRecord({ tenantId: delivery.tenant_id, environmentId: delivery.environment_id, scopeId: delivery.scope_id }, delivery);
    }
  }
}
