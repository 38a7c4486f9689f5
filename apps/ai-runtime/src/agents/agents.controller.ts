import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProperty } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { AgentConfig, AgentRunView } from '@platform/messaging';
import { ApiTag } from '@platform/service';
import { AgentRunner } from './agent-runner.service.js';

export class ExecuteAgentRequestDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'object' }],
    example: 'Is order A-17 shipped, and what is our refund window?',
    description: 'Text, or an object given to the model as JSON',
  })
  @IsDefined()
  input!: unknown;
}

const RUN_EXAMPLE = {
  id: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f',
  agent_id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f',
  execution_id: null,
  status: 'succeeded',
  input: 'Is order A-17 shipped?',
  output: 'Order A-17 shipped yesterday.',
  error: null,
  steps: [
    {
      type: 'model',
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'order_status', arguments: '{"order":"A-17"}' } }],
      },
    },
    {
      type: 'tool',
      tool: 'order_status',
      tool_type: 'workflow',
      arguments: '{"order":"A-17"}',
      output: { execution_id: '…', status: 'succeeded', output: { shipped: true } },
    },
    { type: 'model', finish_reason: 'stop', message: { role: 'assistant', content: 'Order A-17 shipped yesterday.' } },
  ],
  usage: { prompt_tokens: 310, completion_tokens: 42, total_tokens: 352 },
  created_at: '2026-11-24T10:00:00.000Z',
  finished_at: '2026-11-24T10:00:03.000Z',
};

/** Running AI agents and reading their runs. */
@ApiTag(
  'ai-agents-runtime',
  'Run AI agents configured in the catalog: a tool-calling loop over workflows, knowledge bases and connector operations, every call recorded.',
)
@Controller('ai')
export class AgentsController {
  constructor(private readonly runner: AgentRunner) {}

  @Get('agents')
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'List AI agents',
    description: "The catalog's agent configurations visible to the caller (a customer sees tenant-wide agents and its own).",
  })
  @ApiOkResponse({ description: 'The agents' })
  async list(@CurrentPrincipal() p: Principal): Promise<{ data: AgentConfig[] }> {
    return { data: await this.runner.list(p) };
  }

  @Post('agents/:id/execute')
  @HttpCode(200)
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Execute AI agent',
    description:
      'Runs the agent to its end and answers the run: `succeeded` with `output`, or `failed` (step limit, time budget, a model error) with `error`. Every model and tool call is in `steps`.',
  })
  @ApiOkResponse({ description: 'The finished run', example: RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such agent' })
  execute(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() b: ExecuteAgentRequestDto): Promise<AgentRunView> {
    return this.runner.execute({ tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId, keyMode: p.keyMode }, id, b.input);
  }

  @Get('agent-runs/:id')
  @RequireScopes('ai:run')
  @ApiOperation({ summary: 'Get an agent run', description: 'Its status, output and every model and tool call with timings and token usage.' })
  @ApiOkResponse({ description: 'The run', example: RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such run' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<AgentRunView> {
    return this.runner.get(p, id);
  }
}
