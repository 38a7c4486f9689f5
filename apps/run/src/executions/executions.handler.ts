import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  GetExecutionRequest,
  RunSubjects,
  StartExecutionRequest,
  TenantPayload,
  type ExecutionSummary,
  type StartExecutionResponse,
  type TenantMessage,
} from '@platform/messaging';
import { ExecutionStarter } from './execution.starter.js';
import { ExecutionsService } from './executions.service.js';

@Controller()
export class ExecutionsHandler {
  constructor(
    private readonly starter: ExecutionStarter,
    private readonly executions: ExecutionsService,
  ) {}

  /** Triggers, webhooks and the portal start runs here. */
  @MessagePattern(RunSubjects.executionsStart)
  async start(@TenantPayload(StartExecutionRequest) { tenant, body }: TenantMessage<StartExecutionRequest>): Promise<StartExecutionResponse> {
    const { keyMode, ...request } = body;
    const { execution, status } = await this.starter.start(
      { ...tenant, keyMode },
      { ...request, trigger: { type: body.trigger.type, id: body.trigger.id ?? null } },
    );
    return { runId: execution.id, status };
  }

  /** An execution's outcome, for callers that heard its final event (sync webhooks). */
  @MessagePattern(RunSubjects.executionsGet)
  get(@TenantPayload(GetExecutionRequest) { tenant, body }: TenantMessage<GetExecutionRequest>): Promise<ExecutionSummary> {
    return this.executions.summary(tenant, body.executionId);
  }
}
