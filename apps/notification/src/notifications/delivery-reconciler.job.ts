import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';
import { NotificationsService } from './notifications.service.js';
import { notificationsRepository } from './notifications.repository.js';

/**
 * Queues again the notifications owed a delivery that made no progress for a while: stored but
 * never queued (NATS was down at the send), or whose work item was lost. A repeat is harmless: the
 * worker takes a notification only when it is owed an attempt.
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
    const queued: typeof stale = [];
    for (const row of stale) {
      const ctx = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id };
      if (await this.notifications.enqueue(ctx, [row.id], `${row.id}:${row.attempt_count}:${Date.now()}`)) queued.push(row);
    }
    await this.system.run('notification reconciler: mark re-queued', (m) => notificationsRepository.touch(m, queued), 'debug');
  }
}
