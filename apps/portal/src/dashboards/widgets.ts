import { EXECUTION_STATUSES, type ExecutionStatus, type ExecutionsReport, type UsageSnapshot } from '@platform/messaging';

export const WIDGET_TYPES = ['executions_per_day', 'failure_rate', 'slowest_workflows', 'most_failing_workflows', 'open_tasks', 'usage_quota'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];

export interface Widget {
  id: string;
  type: WidgetType;
  title: string;
  /** Rows of the slowest and most failing lists. */
  limit: number;
}

export const DEFAULT_TITLES: Record<WidgetType, string> = {
  executions_per_day: 'Executions per day',
  failure_rate: 'Failure rate',
  slowest_workflows: 'Slowest workflows',
  most_failing_workflows: 'Most failing workflows',
  open_tasks: 'Open tasks',
  usage_quota: 'Usage against quota',
};

export type DayCounts = { date: string; total: number } & Record<ExecutionStatus, number>;

/** One entry per day of the period that has executions, every status present (0 when none). */
export function perDay(report: ExecutionsReport): DayCounts[] {
  const days = new Map<string, DayCounts>();
  for (const row of report.by_day) {
    const day = days.get(row.date) ?? ({ date: row.date, total: 0, ...Object.fromEntries(EXECUTION_STATUSES.map((s) => [s, 0])) } as DayCounts);
    // The report arrives over the bus: a status this build does not know is counted in the total only.
    if ((EXECUTION_STATUSES as readonly string[]).includes(row.status)) day[row.status] += row.count;
    day.total += row.count;
    days.set(row.date, day);
  }
  return [...days.values()];
}

/** Failed and timed out over every finished execution of the period. */
export function failureRate(report: ExecutionsReport): { finished: number; failed: number; rate: number } {
  const s = report.by_status;
  const failed = (s.failed ?? 0) + (s.timed_out ?? 0);
  const finished = failed + (s.succeeded ?? 0) + (s.cancelled ?? 0);
  return { finished, failed, rate: finished === 0 ? 0 : Math.round((failed / finished) * 10_000) / 10_000 };
}

/** What a widget is computed from: the run service's report, and the task and subscription answers when a widget needs them. */
export interface WidgetSources {
  report: ExecutionsReport;
  openTasks: number | null;
  usage: UsageSnapshot | null;
}

export function widgetData(widget: Widget, { report, openTasks, usage }: WidgetSources): unknown {
  switch (widget.type) {
    case 'executions_per_day':
      return { days: perDay(report), total: report.total };
    case 'failure_rate':
      return failureRate(report);
    case 'slowest_workflows':
      return { workflows: report.slowest.slice(0, widget.limit) };
    case 'most_failing_workflows':
      return { workflows: report.most_failing.slice(0, widget.limit) };
    case 'open_tasks':
      return { open: openTasks ?? 0 };
    case 'usage_quota':
      return usage && { plan: usage.plan, period_start: usage.period_start, period_end: usage.period_end, metrics: usage.metrics };
  }
}
