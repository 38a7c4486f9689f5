import { Module } from '@nestjs/common';
import { DataPlaneModes } from '@platform/service';
import { SUBSCRIPTION_CONFIG, loadSubscriptionConfig } from './config/subscription.config.js';
import { BillingController } from './invoices/billing.controller.js';
import { BillingJob } from './invoices/billing.job.js';
import { BillingService } from './invoices/billing.service.js';
import { InvoicesController } from './invoices/invoices.controller.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { LimitsHandler } from './limits/limits.handler.js';
import { LimitsService } from './limits/limits.service.js';
import { LimitsPublisher } from './subscriptions/limits-publisher.js';
import { SubscriptionsController } from './subscriptions/subscriptions.controller.js';
import { SubscriptionsService } from './subscriptions/subscriptions.service.js';
import { UsageController } from './usage/usage.controller.js';
import { UsageHandler } from './usage/usage.handler.js';
import { UsageService } from './usage/usage.service.js';
import { UsageAggregator } from './usage/usage.aggregator.js';
import { UsageBatchWorker, UsageWorker } from './usage/usage.worker.js';

/** Plans, the tenant's subscription, usage metering, quotas the gateway enforces, and invoices. */
@Module({
  controllers: [SubscriptionsController, UsageController, InvoicesController, BillingController, LimitsHandler, UsageHandler],
  providers: [
    { provide: SUBSCRIPTION_CONFIG, useFactory: () => loadSubscriptionConfig() },
    LimitsService,
    { provide: LimitsPublisher, useExisting: LimitsService },
    SubscriptionsService,
    UsageService,
    UsageAggregator,
    UsageWorker,
    UsageBatchWorker,
    DataPlaneModes,
    InvoicesService,
    BillingService,
    BillingJob,
  ],
})
export class SubscriptionModule {}
