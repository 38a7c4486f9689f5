import { Inject, Injectable, Logger } from '@nestjs/common';
import { ConflictError, NotFoundError, errorMessage } from '@platform/common';
import { SystemDb } from '@platform/db';
import { USAGE_METRICS } from '@platform/messaging';
import { LimitsService } from '../limits/limits.service.js';
import { GAUGE_METRICS } from '../plans/plan.record.js';
import { periodAfter } from '../subscriptions/periods.js';
import { invoiceLines } from './invoice-lines.js';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { invoicesRepository, type DueSubscription } from './invoices.repository.js';

/**
 * Closes ended periods: for each tenant whose period has ended, one transaction on the system
 * path locks its subscription, writes the period's invoice from the metered totals and the plan,
 * and opens the next period. Replicas run this at once without harm: the lock makes the second
 * wait and then find the period open, and the invoice's unique key (tenant, period start) would
 * refuse a second invoice anyway. Usage aggregation holds the same row shared, so every fact is
 * in exactly one period.
 */
/** What one billing pass did on this replica. */
export interface BillingPass {
  issued: number;
  failed: number;
}

@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    private readonly system: SystemDb,
    private readonly limits: LimitsService,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
  ) {}

  /**
   * One pass over the tenants whose period has ended: the invoices this replica wrote, and the
   * closes that failed. A failing tenant does not stop the pass: its failure is recorded on its
   * subscription and the pass goes on to the next; after SUBSCRIPTION_BILLING_MAX_ATTEMPTS failed
   * passes in a row it is left to an operator (retry).
   */
  async run(batch = 200): Promise<BillingPass> {
    const pass: BillingPass = { issued: 0, failed: 0 };
    let after: DueSubscription | undefined;
    for (;;) {
      const due = await this.system.run(
        'billing: subscriptions whose period has ended',
        (m) => invoicesRepository.due(m, batch, this.config.SUBSCRIPTION_BILLING_MAX_ATTEMPTS, after),
        'debug',
      );
      for (const { tenant_id } of due) {
        try {
          if (await this.close(tenant_id)) pass.issued++;
        } catch (error) {
          pass.failed++;
          await this.recordFailure(tenant_id, error);
        }
      }
      if (due.length < batch) return pass;
      after = due[due.length - 1];
    }
  }

  /** The operator's retry of a tenant the pass gave up on (or any tenant): its count starts again and its period is closed now. */
  async retry(tenantId: string): Promise<{ invoice_id: string | null }> {
    const found = await this.system.run(`billing: retry tenant ${tenantId}`, (m) => invoicesRepository.clearBillingFailures(m, tenantId));
    if (!found) throw new NotFoundError('Subscription');
    try {
      return { invoice_id: (await this.close(tenantId)) ?? null };
    } catch (error) {
      await this.recordFailure(tenantId, error);
      throw new ConflictError('billing_failed', 'Closing the billing period failed again; the error is in the service log and recorded on the subscription');
    }
  }

  private async recordFailure(tenantId: string, error: unknown): Promise<void> {
    const message = errorMessage(error);
    const attempts = await this.system.run(`billing: record the failed close of tenant ${tenantId}`, (m) =>
      invoicesRepository.recordBillingFailure(m, tenantId, message),
    );
    const max = this.config.SUBSCRIPTION_BILLING_MAX_ATTEMPTS;
    if (attempts >= max)
      this.logger.error(
        `billing of tenant ${tenantId} gave up after ${attempts} failed passes (${message}); fix the cause, then POST /subscription/system/billing/retry`,
      );
    else this.logger.warn(`billing of tenant ${tenantId} failed (${attempts}/${max}), tried again next pass: ${message}`);
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
