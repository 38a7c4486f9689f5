import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { SubscriptionSubjects, TenantPayload, UsageGetRequest, type TenantMessage, type UsageSnapshot } from '@platform/messaging';
import { UsageService } from './usage.service.js';

/** The portal's "usage against quota" widget: the same numbers as `GET /subscription/usage`. */
@Controller()
export class UsageHandler {
  constructor(private readonly usage: UsageService) {}

  @MessagePattern(SubscriptionSubjects.usageGet)
  get(@TenantPayload(UsageGetRequest) { tenant, body }: TenantMessage<UsageGetRequest>): Promise<UsageSnapshot> {
    return this.usage.forTenant(tenant, body.customerId);
  }
}
