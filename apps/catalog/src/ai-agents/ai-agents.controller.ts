import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { AgentConfig } from '@platform/messaging';
import { ApiTag } from '@platform/service';
import { AGENT_EXAMPLE } from './ai-agent.record.js';
import { AiAgentsService } from './ai-agents.service.js';
import { CreateAiAgentRequestDto, ListAiAgentsQueryDto, UpdateAiAgentRequestDto } from './dto/ai-agent.request.dto.js';

/** AI agent configurations. */
@ApiTag(
  'ai-agents',
  'AI agent configurations: a chat model, its instructions and its tools (workflows, knowledge bases, connector operations). Run them with POST /ai/agents/{id}/execute.',
)
@Controller('catalog/ai-agents')
export class AiAgentsController {
  constructor(private readonly agents: AiAgentsService) {}

  @Post()
  @RequireScopes('ai:write')
  @ApiOperation({
    summary: 'Create an AI agent',
    description: 'A customer key creates an agent of its own; a tenant key a tenant-wide one that customers can use.',
  })
  @ApiCreatedResponse({ description: 'The agent', example: AGENT_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() b: CreateAiAgentRequestDto): Promise<AgentConfig> {
    return this.agents.create(p, b);
  }

  @Get()
  @RequireScopes('ai:run')
  @ApiOperation({ summary: 'List AI agents', description: 'Agent configurations of the environment (model, instructions, tools, limits), cursor-paginated.' })
  @ApiOkResponse({ description: 'A page of agents', example: { data: [AGENT_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListAiAgentsQueryDto): Promise<Page<AgentConfig>> {
    return this.agents.list(p, q);
  }

  @Get(':id')
  @RequireScopes('ai:run')
  @ApiOperation({ summary: 'Get an AI agent', description: "One agent configuration. Another tenant's agent is 404, like an unknown id." })
  @ApiOkResponse({ description: 'The agent', example: AGENT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such agent' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<AgentConfig> {
    return this.agents.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('ai:write')
  @ApiOperation({ summary: 'Change an AI agent', description: 'Fields not sent are kept; `tools` replaces the whole list.' })
  @ApiOkResponse({ description: 'The agent', example: AGENT_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such agent' })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() b: UpdateAiAgentRequestDto): Promise<AgentConfig> {
    return this.agents.update(p, id, b);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('ai:write')
  @ApiOperation({ summary: 'Delete an AI agent', description: 'Its recorded runs stay readable at `/ai/agent-runs/{id}`.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such agent' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    return this.agents.delete(p, id);
  }
}
