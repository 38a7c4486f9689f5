import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { TenantDb } from '@platform/db';
import {
  NATS_CONNECTION,
  USAGE_FACTS_QUEUE,
  ensureWorkQueue,
  hasTenant,
  startWorker,
  type UsageFact,
  type WorkItem,
  type WorkResult,
  type Worker,
} from '@platform/messaging';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { LimitsService } from '../limits/limits.service.js';
import { periodAt } from '../subscriptions/periods.js';
import { subscriptionsRepository } from '../subscriptions/subscriptions.repository.js';
import { usageRepository } from './usage.repository.js';

/**
 * Aggregates the usage facts every service publishes. Each fact is one transaction that holds the
 * tenant's subscription row shared (so a period cannot close halfway through it), records the
 * fact's id and adds it to the totals; a replayed fact finds its id and adds nothing. A fact is
 * counted in the period that is current when it is aggregated (seconds after it happened). When a
 * fact takes a quota across its limit (either way), every gateway is told.
 */
@Injectable()
export class UsageWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageWorker.name);
  private worker?: Worker;

  constructor(
    private readonly db: TenantDb,
    private readonly limits: LimitsService,
    @Inject(SUBSCRIPTION_CONFIG) private readonly config: SubscriptionConfig,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, USAGE_FACTS_QUEUE);
    this.worker = await startWorker<UsageFact>(this.nc, USAGE_FACTS_QUEUE, (item) => this.aggregate(item), {
      concurrency: this.config.SUBSCRIPTION_USAGE_CONCURRENCY,
      onError: (error) => this.logger.warn(`usage fact not aggregated (redelivered): ${String(error)}`),
    });
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }

  async aggregate(item: WorkItem<UsageFact>): Promise<WorkResult> {
    if (!hasTenant(item.context)) {
      this.logger.warn(`usage fact ${item.data.eventId} without a tenant context: dropped`);
      return { ack: true };
    }
    const ctx = { tenantId: item.context.tenantId, environmentId: item.context.environmentId, scopeId: item.context.scopeId ?? null };
    const fact = item.data;
    const crossed = await this.db.run(ctx, async (m) => {
      const subscription = await subscriptionsRepository.ensure(m, ctx.tenantId, this.config.SUBSCRIPTION_DEFAULT_PLAN, periodAt(new Date()), 'share');
      const result = await usageRepository.aggregate(m, ctx, fact, subscription.period_start);
      const limit = subscription.plan.quotas[fact.metric]?.limit ?? null;
      if (result.total === null || limit === null) return false;
      return result.total - fact.quantity < limit !== result.total < limit;
    });
    if (crossed) await this.limits.publish(ctx.tenantId);
    return { ack: true };
  }
}
