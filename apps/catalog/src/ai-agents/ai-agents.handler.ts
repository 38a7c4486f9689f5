import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CatalogAgentSubjects, GetAgentRequest, ListAgentsRequest, TenantPayload, type AgentConfig, type TenantMessage } from '@platform/messaging';
import { AiAgentsService } from './ai-agents.service.js';

/** Agent configurations for the AI runtime, under the caller's tenant and customer scope. */
@Controller()
export class AiAgentsHandler {
  constructor(private readonly agents: AiAgentsService) {}

  @MessagePattern(CatalogAgentSubjects.agentsGet)
  get(@TenantPayload(GetAgentRequest) { tenant, body }: TenantMessage<GetAgentRequest>): Promise<AgentConfig> {
    return this.agents.get(tenant, body.agentId);
  }

  @MessagePattern(CatalogAgentSubjects.agentsList)
  async list(@TenantPayload(ListAgentsRequest) { tenant, body }: TenantMessage<ListAgentsRequest>): Promise<{ data: AgentConfig[] }> {
    const page = await this.agents.list(tenant, { limit: body.limit ?? 200 });
    return { data: page.data };
  }
}
