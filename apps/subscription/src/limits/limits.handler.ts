import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { LimitsGetRequest, SubscriptionSubjects, SystemPayload, type SystemMessage, type TenantLimits } from '@platform/messaging';
import { LimitsService } from './limits.service.js';

/** The gateway's question: a tenant's limits, asked once per tenant and process, then kept fresh by events. */
@Controller()
export class LimitsHandler {
  constructor(private readonly limits: LimitsService) {}

  @MessagePattern(SubscriptionSubjects.limitsGet)
  get(@SystemPayload(LimitsGetRequest) { body }: SystemMessage<LimitsGetRequest>): Promise<TenantLimits> {
    return this.limits.compute(body.tenantId);
  }
}
