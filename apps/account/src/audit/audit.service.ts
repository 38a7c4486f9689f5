import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, NotFoundError, decodeCursor, toPage, type Page } from '@platform/common';
import { SqlFilter, TenantDb } from '@platform/db';
import type { AuditLogQueryDto, UsageQueryDto } from './dto/audit-log.query.dto.js';

interface AuditRow {
  id: string;
  key_id: string | null;
  key_name: string | null;
  user_id: string | null;
  method: string;
  endpoint: string;
  status: 'success' | 'error';
  http_status: number;
  request_id: string | null;
  ip: string | null;
  created_at: Date;
}

export interface AuditLogEntry extends Omit<AuditRow, 'created_at'> {
  created_at: string;
}

export interface KeyUsage {
  key_id: string;
  from: string;
  to: string;
  total: number;
  success: number;
  error: number;
  by_endpoint: { endpoint: string; count: number }[];
  by_day: { date: string; count: number }[];
}

const DAY = 24 * 3600 * 1000;

function range(from?: string, to?: string): [Date, Date] {
  const end = to ? new Date(to) : new Date();
  const start = from ? new Date(from) : new Date(end.getTime() - 30 * DAY);
  if (start > end) throw new AppError('validation_failed', 400, 'from: must not be after to', [{ field: 'from', message: 'must not be after to' }]);
  return [start, end];
}

@Injectable()
export class AuditService {
  constructor(private readonly db: TenantDb) {}

  async logs(principal: Principal, query: AuditLogQueryDto): Promise<Page<AuditLogEntry>> {
    const [from, to] = range(query.from, query.to);
    const after = decodeCursor(query.cursor, ['at', 'id'] as const);
    const f = new SqlFilter().add('created_at >= ?', from).add('created_at <= ?', to);
    if (query.key_name) f.add('key_name = ?', query.key_name);
    if (query.endpoint) f.add('endpoint = ?', query.endpoint);
    if (query.status) f.add('status = ?', query.status);
    if (after) f.add('(created_at, id) < (?, ?)', new Date(String(after.at)), String(after.id));
    const limit = f.param(query.limit + 1);
    const rows = (await this.db.run(principal, (m) =>
      m.query(
        `select id, key_id, key_name, user_id, method, endpoint, status, http_status, request_id, ip, created_at
           from account.audit_logs ${f.where} order by created_at desc, id desc limit ${limit}`,
        f.params,
      ),
    )) as AuditRow[];
    return toPage(rows, query.limit, (r) => ({ ...r, created_at: r.created_at.toISOString() }), (r) => ({ at: r.created_at.toISOString(), id: r.id }));
  }

  async usage(principal: Principal, keyId: string, query: UsageQueryDto): Promise<KeyUsage> {
    const [from, to] = range(query.from, query.to);
    return this.db.run(principal, async (m) => {
      const key = (await m.query(`select 1 from account.api_keys where id = $1`, [keyId])) as unknown[];
      if (!key.length) throw new NotFoundError('API key');
      const args = [keyId, from, to];
      const filter = `key_id = $1 and created_at >= $2 and created_at <= $3`;
      const [totals] = (await m.query(
        `select count(*)::int as total, count(*) filter (where status = 'success')::int as success, count(*) filter (where status = 'error')::int as error
           from account.audit_logs where ${filter}`,
        args,
      )) as { total: number; success: number; error: number }[];
      const byEndpoint = (await m.query(
        `select endpoint, count(*)::int as count from account.audit_logs where ${filter} group by endpoint order by count desc, endpoint limit 100`,
        args,
      )) as { endpoint: string; count: number }[];
      const byDay = (await m.query(
        `select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as date, count(*)::int as count
           from account.audit_logs where ${filter} group by 1 order by 1`,
        args,
      )) as { date: string; count: number }[];
      return { key_id: keyId, from: from.toISOString(), to: to.toISOString(), ...totals, by_endpoint: byEndpoint, by_day: byDay };
    });
  }
}
