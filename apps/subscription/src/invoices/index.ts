import type { EntityManager } from 'typeorm';
import { invoicesRepository } from './invoices.repository.js';

// What the operator's command (cli/) uses of invoices: the repository stays private to this folder
// (scripts/check-feature-deps.js).

/** System path: the operator's (or a test's) early end of the tenant's current period, now; undefined when it has none open. */
export function endPeriodNow(m: EntityManager, tenantId: string): Promise<{ period_start: Date; period_end: Date } | undefined> {
  return invoicesRepository.endPeriodNow(m, tenantId);
}
