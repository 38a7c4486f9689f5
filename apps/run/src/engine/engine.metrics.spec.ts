import { describe, expect, it } from '@jest/globals';
import { declaredLabelProblems, metricsRegistry } from '@platform/common';
import './engine.metrics.js';

describe('the metrics of the engine', () => {
  it('declare no label that names an identity', () => {
    expect(metricsRegistry.getMetricsAsArray().map((m) => (m as unknown as { name: string }).name)).toEqual(
      expect.arrayContaining(['run_executions_started_total', 'run_execution_duration_seconds', 'run_step_duration_seconds']),
    );
    expect(declaredLabelProblems()).toEqual([]);
  });
});
