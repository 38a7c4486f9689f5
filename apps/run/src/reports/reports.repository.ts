import type { EntityManager } from 'typeorm';
import type { ExecutionsReport, RecentExecution } from '@platform/messaging';

export interface ReportFilter {
  from: Date;
  to: Date;
  customerId: string | null;
  top: number;
}

const FINISHED = `('succeeded', 'failed', 'cancelled', 'timed_out')`;
const FAILED = `('failed', 'timed_out')`;

/**
 * Every statement reads executions by (tenant_id, environment_id, created_at) through
 * `executions_by_created`: tenant_id and environment_id are bound from the RLS context so the
 * planner can use them as index conditions, and the period bounds the range.
 */
const PERIOD = `tenant_id = nullif(current_setting('app.tenant_id', true), '')::uuid
  and environment_id = nullif(current_setting('app.env_id', true), '')::uuid
  and created_at >= $1 and created_at < $2 and ($3::uuid is null or scope_id = $3)`;

export const REPORT_SQL = {
  byDay: `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as date, status, count(*)::int as count
            from run.executions where ${PERIOD} group by 1, 2 order by 1, 2`,
  slowest: `select workflow_id, count(*)::int as finished,
                   round(avg(extract(epoch from finished_at - coalesce(started_at, created_at)) * 1000))::bigint as avg_ms,
                   round(max(extract(epoch from finished_at - coalesce(started_at, created_at)) * 1000))::bigint as max_ms
              from run.executions where ${PERIOD} and status in ${FINISHED} and finished_at is not null
             group by workflow_id order by avg_ms desc, workflow_id limit $4`,
  mostFailing: `select workflow_id, (count(*) filter (where status in ${FAILED}))::int as failed, count(*)::int as total
                  from run.executions where ${PERIOD}
                 group by workflow_id having count(*) filter (where status in ${FAILED}) > 0
                 order by failed desc, workflow_id limit $4`,
} as const;

const params = (f: ReportFilter) => [f.from, f.to, f.customerId, f.top];

export const reportsRepository = {
  async report(m: EntityManager, f: ReportFilter): Promise<ExecutionsReport> {
    const p = params(f);
    const byDay = await m.query<{ date: string; status: string; count: number }[]>(REPORT_SQL.byDay, p.slice(0, 3));
    const slowest = await m.query<{ workflow_id: string; finished: number; avg_ms: string; max_ms: string }[]>(REPORT_SQL.slowest, p);
    const mostFailing = await m.query<{ workflow_id: string; failed: number; total: number }[]>(REPORT_SQL.mostFailing, p);
    const byStatus: Record<string, number> = {};
    for (const row of byDay) byStatus[row.status] = (byStatus[row.status] ?? 0) + row.count;
    return {
      by_day: byDay,
      by_status: byStatus,
      total: Object.values(byStatus).reduce((a, b) => a + b, 0),
      slowest: slowest.map((r) => ({ ...r, avg_ms: Number(r.avg_ms), max_ms: Number(r.max_ms) })),
      most_failing: mostFailing,
    };
  },

  /** Newest first through `executions_list` (environment_id, id desc): ids are time-ordered. */
  async recent(m: EntityManager, workflowIds: string[] | null, limit: number): Promise<RecentExecution[]> {
    const rows = await m.query<
      { id: string; workflow_id: string; status: string; output: unknown; error: RecentExecution['error']; created_at: Date; finished_at: Date | null }[]
    >(
      `select id, workflow_id, status, output, error, created_at, finished_at from run.executions
        where environment_id = nullif(current_setting('app.env_id', true), '')::uuid and ($1::uuid[] is null or workflow_id = any($1))
        order by id desc limit $2`,
      [workflowIds, limit],
    );
    return rows.map((r) => ({
      ...r,
      output: r.output ?? null,
      error: r.error ?? null,
      created_at: r.created_at.toISOString(),
      finished_at: r.finished_at?.toISOString() ?? null,
    }));
  },
};
