import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AccountSubjects, ResolveEnvironmentRequest, SystemPayload, type ResolveEnvironmentResponse, type SystemMessage } from '@platform/messaging';
import { EnvironmentsService } from './environments.service.js';

@Controller()
export class EnvironmentsHandler {
  constructor(private readonly environments: EnvironmentsService) {}

  @MessagePattern(AccountSubjects.environmentsResolve)
  resolve(@SystemPayload(ResolveEnvironmentRequest) { body }: SystemMessage<ResolveEnvironmentRequest>): Promise<ResolveEnvironmentResponse> {
    return this.environments.resolve(body);
  }
}
