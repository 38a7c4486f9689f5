import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError } from '@platform/common';
import { SystemDb } from '@platform/db';
import { USAGE_METRICS } from '@platform/messaging';
import { LimitsService } from '../limits/limits.service.js';
import { GAUGE_METRICS } from '../plans/plan.record.js';
import { periodAfter } from '../subscriptions/periods.js';
import { invoiceLines } from './invoice-lines.js';
import { invoicesRepository } from './invoices.repository.js';

/**
 * Closes ended periods: for each tenant whose period has ended, one transaction on the system
 * path locks its subscription, writes the period's invoice from the metered totals and the plan,
 * and opens the next period. Replicas run this at once without harm: the lock makes the second
 * wait and then find the period open, and the invoice's unique key (tenant, period start) would
 * refuse a second invoice anyway. Usage aggregation holds the same row shared, so every fact is
 * in exactly one period.
 */
@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    private readonly system: SystemDb,
    private readonly limits: LimitsService,
  ) {}

  /** One pass over the tenants whose period has ended; the number of invoices this replica wrote. */
  async run(batch = 200): Promise<number> {
    let issued = 0;
    for (;;) {
      const due = await this.system.run('billing: subscriptions whose period has ended', (m) => invoicesRepository.due(m, batch), 'debug');
      for (const tenantId of due) if (await this.close(tenantId)) issued++;
      if (due.length < batch) return issued;
    }
  }

  /** Closes the tenant's ended period, if it has one; the invoice id when this call wrote it. */
  async close(tenantId: string): Promise<string | undefined> {
    const closed = await this.system.run(`billing: close the period of tenant ${tenantId}`, async (m) => {
      const subscription = await invoicesRepository.lockEnded(m, tenantId);
      if (!subscription) return undefined;
      const totals = await invoicesRepository.billableTotals(m, tenantId, subscription.period_start, GAUGE_METRICS);
      const invoiceId = await invoicesRepository.insert(m, subscription, invoiceLines(subscription.plan, totals, USAGE_METRICS));
      await invoicesRepository.openPeriod(m, subscription, periodAfter(subscription.period_end), GAUGE_METRICS);
      return { invoiceId };
    });
    if (!closed) return undefined;
    if (closed.invoiceId) this.logger.log(`invoice ${closed.invoiceId} issued for tenant ${tenantId}`);
    // The counters start afresh: quotas used up in the old period are free again.
    await this.limits.publish(tenantId);
    return closed.invoiceId;
  }

  /** Ends the tenant's current period now (operators, tests); the next billing pass issues its invoice. */
  async endPeriodNow(tenantId: string): Promise<{ tenant_id: string; period_start: string; period_end: string }> {
    const row = await this.system.run(`billing: end the period of tenant ${tenantId} now`, (m) => invoicesRepository.endPeriodNow(m, tenantId));
    if (!row) throw new NotFoundError('Open billing period');
    return { tenant_id: tenantId, period_start: row.period_start.toISOString(), period_end: row.period_end.toISOString() };
  }
}
