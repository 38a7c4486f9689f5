import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { SUBSCRIPTION_CONFIG, type SubscriptionConfig } from '../config/subscription.config.js';
import { BillingService } from './billing.service.js';

/** Every replica looks for ended periods every SUBSCRIPTION_BILLING_INTERVAL_MS; BillingService makes that safe. */
@Injectable()
export class BillingJob extends PeriodicJob {
  constructor(
    private readonly billing: BillingService,
    @Inject(SUBSCRIPTION_CONFIG) config: SubscriptionConfig,
  ) {
    super({ name: 'BillingJob', intervalMs: config.SUBSCRIPTION_BILLING_INTERVAL_MS, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    await this.billing.run();
  }
}
