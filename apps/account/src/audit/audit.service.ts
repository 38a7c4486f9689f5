import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, NotFoundError, decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { auditRepository, type AuditRow } from './audit.repository.js';
import type { AuditLogQueryDto, UsageQueryDto } from './dto/audit-log.query.dto.js';

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

/**
 * The window a filter asks for. Only an explicit `to` before `from` is the client's mistake; a
 * window that simply holds nothing (a `from` in the future, with `to` defaulting to now) is an
 * empty answer, not an error.
 */
function range(from?: string, to?: string): [Date, Date] {
  const end = to ? new Date(to) : new Date();
  const start = from ? new Date(from) : new Date(end.getTime() - 30 * DAY);
  if (to && start > end) throw new AppError('validation_failed', 400, 'to: must not be before from', [{ field: 'to', message: 'must not be before from' }]);
  return [start, end];
}

@Injectable()
export class AuditService {
  constructor(private readonly db: TenantDb) {}

  async logs(principal: Principal, query: AuditLogQueryDto): Promise<Page<AuditLogEntry>> {
    const [from, to] = range(query.from, query.to);
    const after = decodeCursor(query.cursor, { at: 'timestamp', id: 'uuid' });
    const rows = await this.db.run(principal, (m) =>
      auditRepository.list(m, {
        from,
        to,
        keyId: query.key_id,
        keyName: query.key_name,
        endpoint: query.endpoint,
        status: query.status,
        after: after ? { at: new Date(after.at), id: after.id } : undefined,
        limit: query.limit,
      }),
    );
    return toPage(
      rows,
      query.limit,
      (r) => ({ ...r, created_at: r.created_at.toISOString() }),
      (r) => ({ at: r.created_at.toISOString(), id: r.id }),
    );
  }

  async usage(principal: Principal, keyId: string, query: UsageQueryDto): Promise<KeyUsage> {
    const [from, to] = range(query.from, query.to);
    return this.db.run(principal, async (m) => {
      if (!(await auditRepository.keyExists(m, keyId))) throw new NotFoundError('API key');
      const totals = await auditRepository.usageTotals(m, keyId, from, to);
      const byEndpoint = await auditRepository.usageByEndpoint(m, keyId, from, to);
      const byDay = await auditRepository.usageByDay(m, keyId, from, to);
      return { key_id: keyId, from: from.toISOString(), to: to.toISOString(), ...totals, by_endpoint: byEndpoint, by_day: byDay };
    });
  }
}
