import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiConflictResponse, ApiHeader, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiPayloadTooLargeResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { AppError } from '@platform/common';
import { ExecutionStarter } from './execution.starter.js';
import { ExecutionsService } from './executions.service.js';
import { EXECUTION_EXAMPLE, ExecuteWorkflowRequestDto, ListExecutionsQueryDto, ListLogsQueryDto, RunAutomationRequestDto } from './dto/execution.dto.js';

const uuid = new ParseUUIDPipe();
const IDEMPOTENCY = { name: 'Idempotency-Key', required: false, description: 'The same key and body within 24 h return the first run; another body is 409' };

function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) throw new AppError('validation_failed', 400, 'Idempotency-Key: 1-255 visible ASCII characters', [{ field: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' }]);
  return value;
}

/** The 202 answer to a start. */
const accepted = ({ execution, status }: { execution: { id: string }; status: string }) => ({ run_id: execution.id, status });

@ApiTags('executions')
@Controller()
export class ExecutionsController {
  constructor(
    private readonly starter: ExecutionStarter,
    private readonly executions: ExecutionsService,
  ) {}

  @Post('v1/automations/run')
  @HttpCode(202)
  @RequireScopes('automations:run')
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({
    summary: 'Run an automation: 202 with the run id; poll GET /run/executions/{run_id}',
    description: '`status` is `queued` for a new run (accepted; it may already be running by the time you read it) and the current status of the first run for a repeated Idempotency-Key.',
  })
  @ApiAcceptedResponse({ schema: { example: { run_id: '0194…', status: 'queued' } } })
  @ApiNotFoundResponse({ description: 'No such automation for this tenant' })
  @ApiPayloadTooLargeResponse({ description: 'input over the limit' })
  async run(@CurrentPrincipal() p: Principal, @Body() body: RunAutomationRequestDto, @Headers('idempotency-key') key?: string) {
    return accepted(await this.starter.start(p, { workflowId: body.automation_id, input: body.input ?? {}, trigger: { type: 'api', id: null }, idempotencyKey: idempotencyKey(key) }));
  }

  @Post('run/workflows/:id/execute')
  @HttpCode(202)
  @RequireScopes('automations:run')
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({ summary: 'Execute a workflow (the same start as /v1/automations/run)' })
  @ApiAcceptedResponse({ schema: { example: { run_id: '0194…', status: 'queued' } } })
  async execute(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: ExecuteWorkflowRequestDto, @Headers('idempotency-key') key?: string) {
    return accepted(await this.starter.start(p, { workflowId: id, input: body.input ?? {}, trigger: { type: 'api', id: null }, idempotencyKey: idempotencyKey(key) }));
  }

  @Get('run/executions')
  @RequireScopes('executions:read')
  @ApiOperation({ summary: 'List executions, newest first (filters: workflow, status, trigger, time range)' })
  @ApiOkResponse({ schema: { example: { data: [{ ...EXECUTION_EXAMPLE, steps: undefined }], next_cursor: null } } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListExecutionsQueryDto) {
    return this.executions.list(p, query);
  }

  @Get('run/executions/:id')
  @RequireScopes('executions:read')
  @ApiOperation({ summary: 'An execution: status, timings, each step, inputs and outputs (secrets redacted), error' })
  @ApiOkResponse({ schema: { example: EXECUTION_EXAMPLE } })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string) {
    return this.executions.get(p, id);
  }

  @Get('run/executions/:id/logs')
  @RequireScopes('executions:read')
  @ApiOperation({ summary: 'Logs of an execution, oldest first (filters: level, step_id)' })
  @ApiOkResponse({ schema: { example: { data: [{ id: '0194…', step_id: 'double', level: 'info', message: 'transform double succeeded', data: { attempt: 1, ms: 1 }, created_at: '2026-11-22T10:00:00.012Z' }], next_cursor: null } } })
  logs(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() query: ListLogsQueryDto) {
    return this.executions.logs(p, id, query);
  }

  @Post('run/executions/:id/cancel')
  @HttpCode(200)
  @RequireScopes('executions:write')
  @ApiOperation({ summary: 'Cancel an execution; a running step is aborted' })
  @ApiOkResponse({ schema: { example: { ...EXECUTION_EXAMPLE, status: 'cancelled' } } })
  @ApiConflictResponse({ description: 'The execution has already finished' })
  cancel(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string) {
    return this.executions.cancel(p, id);
  }
}
