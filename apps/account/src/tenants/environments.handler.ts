import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AccountSubjects, ResolveEnvironmentRequest, SystemPayload, type ResolveEnvironmentResponse, type SystemMessage } from '@platform/messaging';
import { TenantsService } from './tenants.service.js';

@Controller()
export class EnvironmentsHandler {
  constructor(private readonly tenants: TenantsService) {}

  @MessagePattern(AccountSubjects.environmentsResolve)
  resolve(@SystemPayload(ResolveEnvironmentRequest) { body }: SystemMessage<ResolveEnvironmentRequest>): Promise<ResolveEnvironmentResponse> {
    return this.tenants.resolveEnvironment(body);
  }
}
