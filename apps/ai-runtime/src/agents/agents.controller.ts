import { Body, Controller, Get, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsOptional } from 'class-validator';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { AgentConfig, AgentRunView } from '@platform/messaging';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { AgentEventStream } from './agent-events.js';
import { AgentRunner } from './agent-runner.service.js';

export class ExecuteAgentRequestDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'object' }],
    example: 'Is order A-17 shipped, and what is our refund window?',
    description: 'Text, or an object given to the model as JSON',
  })
  @IsDefined()
  input!: unknown;

  @ApiPropertyOptional({
    example: false,
    description: 'Answer as server-sent events: `run`, then one event per model call, tool call and approval as they happen, then `result` with the run',
  })
  @IsOptional()
  @IsBoolean()
  stream?: boolean;
}

const RUN_EXAMPLE = {
  id: '01937b90-0000-7cc1-9f3e-5b1a2c3d4e5f',
  agent_id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f',
  execution_id: null,
  status: 'succeeded',
  task_id: null,
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

const WAITING_EXAMPLE = {
  ...RUN_EXAMPLE,
  status: 'waiting_approval',
  task_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10',
  input: 'Refund order A-17',
  output: null,
  steps: [
    {
      type: 'model',
      finish_reason: 'tool_calls',
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'refund_order', arguments: '{"order":"A-17"}' } }],
      },
    },
    {
      type: 'approval',
      status: 'waiting',
      task_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f10',
      tool: 'refund_order',
      tool_type: 'workflow',
      call_id: 'call_1',
      arguments: '{"order":"A-17"}',
    },
  ],
  usage: { prompt_tokens: 120, completion_tokens: 14, total_tokens: 134 },
  finished_at: null,
};

const SSE_EXAMPLE = [
  'data: {"type":"run","run_id":"01937b90-…"}',
  'data: {"type":"model","run_id":"01937b90-…","finish_reason":"tool_calls","message":{…},"usage":{…}}',
  'data: {"type":"tool","run_id":"01937b90-…","tool":"order_status","arguments":"{…}","output":{…}}',
  'data: {"type":"model","run_id":"01937b90-…","finish_reason":"stop","message":{…}}',
  'data: {"type":"result","run":{"id":"01937b90-…","status":"succeeded","output":"Order A-17 shipped yesterday.",…}}',
  'data: [DONE]',
].join('\n\n');

const AGENT_EXAMPLE = {
  id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f',
  name: 'Support assistant',
  description: 'Answers with the handbook and the order workflow',
  model: 'local/extractive-summary',
  instructions: 'You are a support assistant. Use the tools.',
  tools: [{ type: 'workflow', name: 'order_status', description: 'Status of an order by number', workflow_id: '01937b81-0000-7cc1-9f3e-5b1a2c3d4e5f' }],
  max_steps: 8,
  time_budget_seconds: 120,
  customer_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
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
  @ApiPageResponse(
    { type: 'object', additionalProperties: true, description: 'An agent configuration, as `GET /catalog/ai-agents/{id}` answers it' },
    { description: "A page of agents, in the catalog's order", example: { data: [AGENT_EXAMPLE], next_cursor: null } },
  )
  list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<AgentConfig>> {
    return this.runner.list(p, q);
  }

  @Post('agents/:id/execute')
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Execute AI agent',
    description:
      'Runs the agent and answers the run: 200 with `succeeded` and `output`, or `failed` (step limit, time budget, a model error) with `error`. ' +
      'When the model calls a tool marked `requires_approval`, the run pauses: 202 with status `waiting_approval` and `task_id`, the approval task a person decides (`POST /tasks/{id}/complete`); ' +
      'the run then continues on its own (read it with `GET /ai/agent-runs/{id}`). Every model, tool and approval step is in `steps`. ' +
      'With `stream: true` the answer is `text/event-stream` (always 200 once the run is recorded): the events as they happen, the last `result` with the run.',
  })
  @ApiProduces('application/json', 'text/event-stream')
  @ApiOkResponse({ description: `The finished run, or with stream: true events such as:\n\n${SSE_EXAMPLE}`, example: RUN_EXAMPLE })
  @ApiAcceptedResponse({ description: 'The run waits for the approval of a tool call (task_id)', example: WAITING_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such agent' })
  async execute(
    @CurrentPrincipal() p: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() b: ExecuteAgentRequestDto,
    @Res() res: Response,
  ): Promise<void> {
    const caller = { tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId, keyMode: p.keyMode };
    if (b.stream) {
      const events = new AgentEventStream(res);
      return events.finish(this.runner.execute(caller, id, b.input, null, events));
    }
    const run = await this.runner.execute(caller, id, b.input);
    res.status(run.status === 'waiting_approval' ? 202 : 200).json(run);
  }

  @Get('agent-runs/:id')
  @RequireScopes('ai:run')
  @ApiOperation({
    summary: 'Get an agent run',
    description:
      'Its status (`running`, `waiting_approval` with `task_id`, `succeeded`, `failed`), output and every model call, tool call and approval (waiting, then approved, rejected or expired, with who decided and their comment) with timings and token usage.',
  })
  @ApiOkResponse({ description: 'The run', example: RUN_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such run' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<AgentRunView> {
    return this.runner.get(p, id);
  }
}
