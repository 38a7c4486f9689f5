import { SeriesCache, counter, metricsEnabled } from '@platform/common';
import type { NotificationAttemptResult } from '@platform/messaging';

const attempts = counter({
  name: 'notification_deliveries_total',
  help: 'Delivery attempts, by channel kind (email, slack, teams) and outcome: delivered, retry (a transient failure, tried again), failed (for good)',
  labelNames: ['kind', 'outcome'] as const,
});

const series = new SeriesCache(([kind, outcome]) => attempts.labels(kind, outcome), 50);

export function deliveryAttempted(kind: string, outcome: NotificationAttemptResult): void {
  if (metricsEnabled()) series.get(kind, outcome).inc();
}
