import { describe, expect, it } from '@jest/globals';
import { declaredLabelProblems, metricsRegistry } from '@platform/common';
import './gateway.metrics.js';

describe('the metrics of the gateway', () => {
  it('declare no label that names an identity', () => {
    expect(metricsRegistry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name)).toEqual(
      expect.arrayContaining(['gateway_request_duration_seconds']),
    );
    expect(declaredLabelProblems()).toEqual([]);
  });
});
