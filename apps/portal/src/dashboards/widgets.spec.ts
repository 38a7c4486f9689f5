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

  it('cuts lists to the widget limit and reports open tasks', () => {
    expect(widgetData({ id: 'w', type: 'slowest_workflows', title: 't', limit: 1 }, REPORT, null)).toEqual({ workflows: [REPORT.slowest[0]] });
    expect(widgetData({ id: 'w', type: 'open_tasks', title: 't', limit: 5 }, REPORT, 4)).toEqual({ open: 4 });
  });
});
