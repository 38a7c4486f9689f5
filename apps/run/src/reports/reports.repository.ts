import type { EntityManager } from 'typeorm';
import { isFinished, type ExecutionStatus, type ExecutionsReport, type RecentExecution } from '@platform/messaging';

export interface ReportFilter {
  from: Date;
  to: Date;
  customerId: string | null;
  top: number;
}

/** The finished statuses that count as failures in the reports. */
const FAILED: ReadonlySet<ExecutionStatus> = new Set<ExecutionStatus>(['failed', 'timed_out']);

/**
 * One pass over the period through `executions_by_created` (an index-only scan: tenant_id and
 * environment_id bound from the RLS context as index conditions, the period as the range, every
 * other column it reads included in the index), grouped by day, workflow and status. Everything
 * the dashboards show is summed from those groups, so the rows of the period are read once.
 */
export const REPORT_SQL = `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as date, workflow_id, status,
         count(*)::int as count,
         count(finished_at)::int as finished,
         coalesce(sum(extract(epoch from finished_at - coalesce(started_at, created_at)) * 1000), 0)::float8 as total_ms,
         coalesce(max(extract(epoch from finished_at - coalesce(started_at, created_at)) * 1000), 0)::float8 as max_ms
    from run.executions
   where tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
     and environment_id = nullif(current_setting('app.env_id', true), '')::uuid
     and created_at >= $1 and created_at < $2 and ($3::uuid is null or scope_id = $3)
   group by 1, 2, 3`;

interface GroupRow {
  date: string;
  workflow_id: string;
  status: ExecutionStatus;
  count: number;
  finished: number;
  total_ms: number;
  max_ms: number;
}

export function summarise(rows: GroupRow[], top: number): ExecutionsReport {
  const byDay = new Map<string, ExecutionsReport['by_day'][number]>();
  const byStatus: ExecutionsReport['by_status'] = {};
  let total = 0;
  const workflows = new Map<string, { finished: number; totalMs: number; maxMs: number; failed: number; total: number }>();
  for (const r of rows) {
    const dayKey = `${r.date}|${r.status}`;
    const day = byDay.get(dayKey) ?? { date: r.date, status: r.status, count: 0 };
    day.count += r.count;
    byDay.set(dayKey, day);
    byStatus[r.status] = (byStatus[r.status] ?? 0) + r.count;
    total += r.count;
    const w = workflows.get(r.workflow_id) ?? { finished: 0, totalMs: 0, maxMs: 0, failed: 0, total: 0 };
    w.total += r.count;
    if (FAILED.has(r.status)) w.failed += r.count;
    if (isFinished(r.status) && r.finished > 0) {
      w.finished += r.finished;
      w.totalMs += r.total_ms;
      w.maxMs = Math.max(w.maxMs, r.max_ms);
    }
    workflows.set(r.workflow_id, w);
  }
  const entries = [...workflows.entries()];
  const slowest = entries
    .filter(([, w]) => w.finished > 0)
    .map(([workflow_id, w]) => ({ workflow_id, finished: w.finished, avg_ms: Math.round(w.totalMs / w.finished), max_ms: Math.round(w.maxMs) }))
    .sort((x, y) => y.avg_ms - x.avg_ms || x.workflow_id.localeCompare(y.workflow_id))
    .slice(0, top);
  const mostFailing = entries
    .filter(([, w]) => w.failed > 0)
    .map(([workflow_id, w]) => ({ workflow_id, failed: w.failed, total: w.total }))
    .sort((x, y) => y.failed - x.failed || x.workflow_id.localeCompare(y.workflow_id))
    .slice(0, top);
  return {
    by_day: [...byDay.values()].sort((x, y) => x.date.localeCompare(y.date) || x.status.localeCompare(y.status)),
    by_status: byStatus,
    total,
    slowest,
    most_failing: mostFailing,
  };
}

/** Newest first: `executions_list` (environment_id, id desc) in order, or for a tenant with few rows `executions_by_created` and a small sort. */
export const RECENT_SQL = `select id, workflow_id, status, output, error, created_at, finished_at from run.executions
  where environment_id = nullif(current_setting('app.env_id', true), '')::uuid and ($1::uuid[] is null or workflow_id = any($1))
  order by id desc limit $2`;

export const reportsRepository = {
  async report(m: EntityManager, f: ReportFilter): Promise<ExecutionsReport> {
    return summarise(await m.query<GroupRow[]>(REPORT_SQL, [f.from, f.to, f.customerId]), f.top);
  },

  async recent(m: EntityManager, workflowIds: string[] | null, limit: number): Promise<RecentExecution[]> {
    const rows = await m.query<
      {
        id: string;
        workflow_id: string;
        status: ExecutionStatus;
        output: unknown;
        error: RecentExecution['error'];
        created_at: Date;
        finished_at: Date | null;
      }[]
    >(RECENT_SQL, [workflowIds, limit]);
    return rows.map((r) => ({
      ...r,
      output: r.output ?? null,
      error: r.error ?? null,
      created_at: r.created_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
    }));
  },
};
