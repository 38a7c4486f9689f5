import { Inject, Injectable } from '@nestjs/common';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import type { UsageFact } from '@platform/messaging';
import { DataPlaneModes } from '@platform/service';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { LimitsService } from '../limits/limits.service.js';
import { periodAt } from '../subscriptions/periods.js';
import { ensureSubscription } from '../subscriptions/index.js';
import { crossedQuotas } from './quota-crossing.js';
import { usageRepository } from './usage.repository.js';

/**
 * Adds usage facts to the totals, however they arrived (one per work item, or a batch in one).
 * The facts of one tenant context arriving together are one transaction (TenantBatcher) that holds
 * the tenant's subscription row shared (so a period cannot close halfway through), records each
 * fact's id and adds the new ones to the totals; a replayed fact finds its id and adds nothing. A
 * fact is counted in the period that is current when it is aggregated (a second or so after it
 * happened). When the facts take a quota across its cap (either way), every gateway is told.
 */
@Injectable()
export class UsageAggregator {
  private readonly batches: TenantBatcher<UsageFact, undefined>;

  constructor(
    private readonly db: TenantDb,
    private readonly limits: LimitsService,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
    private readonly modes: DataPlaneModes,
  ) {
    this.batches = new TenantBatcher((ctx, facts) => this.aggregateBatch(ctx, facts));
  }

  add(ctx: TenantContext, fact: UsageFact): Promise<undefined> {
    return this.batches.submit(ctx, fact);
  }

  private async aggregateBatch(ctx: TenantContext, batch: UsageFact[]): Promise<undefined[]> {
    // A fact delivered twice in one batch is added once (the second would conflict with the first).
    const unique = [...new Map(batch.map((f) => [f.eventId.toLowerCase(), f])).values()];
    // A fact no key started (a schedule's, an event's or a webhook's run) counts as its data plane: sandbox on a test plane.
    const planeMode = unique.some((f) => !f.keyMode) ? await this.modes.of(ctx) : undefined;
    const facts = planeMode ? unique.map((f) => (f.keyMode ? f : { ...f, keyMode: planeMode })) : unique;
    const crossed = await this.db.run(ctx, async (m) => {
      const subscription = await ensureSubscription(m, ctx.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()), 'share');
      const result = await usageRepository.aggregate(m, { ...ctx, scopeId: ctx.scopeId ?? null }, facts, subscription.period_start);
      return crossedQuotas(subscription.plan.quotas, facts, result);
    });
    if (crossed) await this.limits.publish(ctx.tenantId);
    return batch.map(() => undefined);
  }
}
