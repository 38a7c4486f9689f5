import { describe, expect, it } from '@jest/globals';
import { declaredLabelProblems, metricsRegistry } from '@platform/common';
import './webhook.metrics.js';

describe('the metrics of webhooks', () => {
  it('declare no label that names an identity', () => {
    expect(metricsRegistry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name)).toEqual(
      expect.arrayContaining(['webhook_deliveries_total', 'webhook_run_starts_total']),
    );
    expect(declaredLabelProblems()).toEqual([]);
  });
});
