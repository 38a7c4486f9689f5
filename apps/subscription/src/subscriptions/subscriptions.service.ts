import { Inject, Injectable } from '@nestjs/common';
import { forbidden, type Principal } from '@platform/auth';
import { decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import type { PageQueryDto } from '@platform/service';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { toPlanResponse, type PlanResponse } from '../plans/plan.record.js';
import { listPlans } from '../plans/index.js';
import { LimitsPublisher } from './limits-publisher.js';
import { periodAt } from './periods.js';
import { tenantWide, toPlanChangeResponse, toSubscriptionResponse, type PlanChangeResponse, type SubscriptionResponse } from './subscription.record.js';
import { SubscriptionErrors } from './subscriptions.errors.js';
import { subscriptionsRepository } from './subscriptions.repository.js';

/** Billing is the tenant's business: a customer key (or a key narrowed to a customer) sees only its usage. */
export function assertTenantWide(p: Principal): void {
  if (p.scopeId) throw forbidden();
}

/** The tenant's subscription: its plan and period, and plan changes (effective at once, recorded). */
@Injectable()
export class SubscriptionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly limits: LimitsPublisher,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
  ) {}

  async current(p: Principal): Promise<SubscriptionResponse> {
    assertTenantWide(p);
    const row = await this.db.run(tenantWide(p.tenantId), (m) =>
      subscriptionsRepository.ensure(m, p.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date())),
    );
    return toSubscriptionResponse(row);
  }

  async changePlan(p: Principal, plan: string): Promise<SubscriptionResponse> {
    assertTenantWide(p);
    const ctx = tenantWide(p.tenantId);
    const row = await this.db.run(ctx, async (m) => {
      if (!(await subscriptionsRepository.plan(m, plan))) throw SubscriptionErrors.unknownPlan(plan);
      await subscriptionsRepository.ensure(m, p.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()));
      const locked = (await subscriptionsRepository.lockForChange(m))!;
      if (locked.plan_code === plan) throw SubscriptionErrors.samePlan(plan);
      await subscriptionsRepository.changePlan(m, p.tenantId, locked.plan_code, plan, `${p.kind}:${p.subject}`);
      return subscriptionsRepository.ensure(m, p.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()));
    });
    // Every gateway moves to the new plan's limits now, not at its next refresh.
    await this.limits.publish(p.tenantId);
    return toSubscriptionResponse(row);
  }

  /** The recorded plan changes, newest first. */
  async changes(p: Principal, q: PageQueryDto): Promise<Page<PlanChangeResponse>> {
    assertTenantWide(p);
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(tenantWide(p.tenantId), (m) => subscriptionsRepository.changes(m, after?.id, q.limit));
    return toPage(rows, q.limit, toPlanChangeResponse, (r) => ({ id: r.id }));
  }

  async plans(p: Principal): Promise<PlanResponse[]> {
    const rows = await this.db.run(tenantWide(p.tenantId), (m) => listPlans(m));
    return rows.map(toPlanResponse);
  }
}
