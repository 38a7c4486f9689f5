import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { AgentExecuteRequest, AiRuntimeSubjects, TenantPayload, type AgentRunView, type TenantMessage } from '@platform/messaging';
import { AgentRunner } from './agent-runner.service.js';

/** The `ai.agent` workflow step runs agents through this subject. */
@Controller()
export class AgentsHandler {
  constructor(private readonly runner: AgentRunner) {}

  @MessagePattern(AiRuntimeSubjects.agentsExecute)
  execute(@TenantPayload(AgentExecuteRequest) { tenant, body }: TenantMessage<AgentExecuteRequest>): Promise<AgentRunView> {
    return this.runner.execute(tenant, body.agentId, body.input, body.executionId ?? null);
  }
}
