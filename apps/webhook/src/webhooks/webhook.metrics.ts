import { SeriesCache, counter, metricsEnabled } from '@platform/common';
import type { StartOutcome } from './run-starter.js';

const deliveries = counter({
  name: 'webhook_deliveries_total',
  help: 'Deliveries received on public webhook addresses, by outcome: accepted, duplicate, rejected (signature or token), too_large, unknown_webhook',
  labelNames: ['outcome'] as const,
});

const runStarts = counter({
  name: 'webhook_run_starts_total',
  help: "Starts of accepted deliveries' runs, by outcome: started, refused (for good: workflow gone or disabled), failed (tried again by the reconciler)",
  labelNames: ['outcome'] as const,
});

const deliverySeries = new SeriesCache(([outcome]) => deliveries.labels(outcome));
const startSeries = new SeriesCache(([outcome]) => runStarts.labels(outcome));

export type DeliveryOutcome = 'accepted' | 'duplicate' | 'rejected' | 'too_large' | 'unknown_webhook';

export function deliveryReceived(outcome: DeliveryOutcome): void {
  if (metricsEnabled()) deliverySeries.get(outcome).inc();
}

export function runStartsDone(outcomes: StartOutcome[]): void {
  if (!metricsEnabled()) return;
  for (const o of outcomes) startSeries.get(o.runId !== null ? 'started' : o.permanent ? 'refused' : 'failed').inc();
}
