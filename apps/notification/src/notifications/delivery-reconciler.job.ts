import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';
import { NotificationsService } from './notifications.service.js';
import { notificationsRepository } from './notifications.repository.js';

/**
 * Queues again the notifications owed a delivery that made no progress for a while: stored but
 * never queued (NATS was down at the send), or whose work item was lost. A repeat is harmless: the
 * worker takes a notification only when it is owed an attempt. Each re-queue is counted: after
 * NOTIFICATION_MAX_REQUEUES without progress the notification is failed with the reason.
 */
@Injectable()
export class DeliveryReconcilerJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly notifications: NotificationsService,
    @Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig,
  ) {
    super({ name: 'NotificationReconcilerJob', intervalMs: Math.max(1000, Math.floor(config.NOTIFICATION_RECONCILE_AFTER_MS / 2)), runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const stale = await this.system.run(
      'notification reconciler: deliveries without progress',
      (m) => notificationsRepository.stale(m, this.config.NOTIFICATION_RECONCILE_AFTER_MS, 500),
      'debug',
    );
    if (!stale.length) return;
    const max = this.config.NOTIFICATION_MAX_REQUEUES;
    const exhausted = stale.filter((row) => row.requeues >= max);
    this.repaired('given_up', exhausted.length);
    if (exhausted.length) {
      const error = `Delivery made no progress after ${max} attempts to queue it`;
      await this.system.run('notification reconciler: give up', (m) => notificationsRepository.giveUp(m, exhausted, error), 'debug');
      this.logger.warn(`${exhausted.length} notification(s) failed: delivery made no progress after ${max} re-queues`);
    }
    const queued: typeof stale = [];
    for (const row of stale.filter((r) => r.requeues < max)) {
      const ctx = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id };
      if (await this.notifications.enqueue(ctx, [row.id], `${row.id}:${row.attempt_count}:${Date.now()}`)) queued.push(row);
    }
    this.repaired('requeued', queued.length);
    await this.system.run('notification reconciler: mark re-queued', (m) => notificationsRepository.touch(m, queued), 'debug');
  }
}
