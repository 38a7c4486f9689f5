import { describe, expect, it } from '@jest/globals';
import { declaredLabelProblems, metricsRegistry } from '@platform/common';
import './notification.metrics.js';

describe('the metrics of notifications', () => {
  it('declare no label that names an identity', () => {
    expect(metricsRegistry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name)).toEqual(
      expect.arrayContaining(['notification_deliveries_total']),
    );
    expect(declaredLabelProblems()).toEqual([]);
  });
});
