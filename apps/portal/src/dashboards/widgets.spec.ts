import { describe, expect, it } from '@jest/globals';
import type { ExecutionsReport } from '@platform/messaging';
import { failureRate, perDay, widgetData } from './widgets.js';

const REPORT: ExecutionsReport = {
  by_day: [
    { date: '2026-11-10', status: 'succeeded', count: 3 },
    { date: '2026-11-10', status: 'failed', count: 1 },
    { date: '2026-11-11', status: 'timed_out', count: 2 },
    { date: '2026-11-11', status: 'running', count: 1 },
  ],
  by_status: { succeeded: 3, failed: 1, timed_out: 2, running: 1 },
  total: 7,
  slowest: [
    { workflow_id: 'a', finished: 2, avg_ms: 900, max_ms: 1000 },
    { workflow_id: 'b', finished: 4, avg_ms: 10, max_ms: 20 },
  ],
  most_failing: [{ workflow_id: 'a', failed: 3, total: 4 }],
};

describe('dashboard widgets', () => {
  it('counts each day with every status present', () => {
    expect(perDay(REPORT)).toEqual([
      { date: '2026-11-10', total: 4, queued: 0, running: 0, waiting: 0, succeeded: 3, failed: 1, cancelled: 0, timed_out: 0 },
      { date: '2026-11-11', total: 3, queued: 0, running: 1, waiting: 0, succeeded: 0, failed: 0, cancelled: 0, timed_out: 2 },
    ]);
  });

  it('rates failures (failed and timed out) over finished executions, 0 without any', () => {
    expect(failureRate(REPORT)).toEqual({ finished: 6, failed: 3, rate: 0.5 });
    expect(failureRate({ ...REPORT, by_status: { running: 2 } })).toEqual({ finished: 0, failed: 0, rate: 0 });
  });

  it('cuts lists to the widget limit and reports open tasks and usage', () => {
    const sources = { report: REPORT, openTasks: 4, usage: USAGE };
    expect(widgetData({ id: 'w', type: 'slowest_workflows', title: 't', limit: 1 }, sources)).toEqual({ workflows: [REPORT.slowest[0]] });
    expect(widgetData({ id: 'w', type: 'open_tasks', title: 't', limit: 5 }, sources)).toEqual({ open: 4 });
    expect(widgetData({ id: 'w', type: 'usage_quota', title: 't', limit: 5 }, sources)).toEqual({
      plan: 'free',
      period_start: USAGE.period_start,
      period_end: USAGE.period_end,
      metrics: USAGE.metrics,
    });
  });
});

const USAGE = {
  plan: 'free',
  period_start: '2026-11-01T00:00:00.000Z',
  period_end: '2026-12-01T00:00:00.000Z',
  customer_id: null,
  metrics: [{ metric: 'runs', used: 3, included: 1000, limit: 1000, remaining: 997, sandbox_used: 2 }],
};
