import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { DEFAULT_PAGE_SIZE, type Page } from '@platform/common';
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
  list(@TenantPayload(ListAgentsRequest) { tenant, body }: TenantMessage<ListAgentsRequest>): Promise<Page<AgentConfig>> {
    return this.agents.list(tenant, { limit: body.limit ?? DEFAULT_PAGE_SIZE, cursor: body.cursor });
  }
}
