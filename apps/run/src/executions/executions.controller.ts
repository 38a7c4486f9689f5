import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { AppError } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { ExecutionStarter } from './execution.starter.js';
import { ExecutionWaiter } from './execution-waiter.js';
import { preferredWaitSeconds } from './prefer-wait.js';
import { ExecutionsService } from './executions.service.js';
import {
  EXECUTION_EXAMPLE,
  ExecuteWorkflowRequestDto,
  ExecutionLogDto,
  ExecutionResponseDto,
  ExecutionSummaryDto,
  ListExecutionsQueryDto,
  ListLogsQueryDto,
  RunAcceptedResponseDto,
  RunAutomationRequestDto,
} from './dto/execution.dto.js';

const uuid = new ParseUUIDPipe();
const IDEMPOTENCY = {
  name: 'Idempotency-Key',
  required: false,
  description: 'The same key and body within 24 h return the first run; another body is 409',
  schema: { type: 'string', example: 'order-4711-run' },
};
const ACCEPTED = {
  type: RunAcceptedResponseDto,
  description: 'Accepted: the run is queued (or, for a repeated Idempotency-Key, the first run)',
  example: { run_id: EXECUTION_EXAMPLE.id, status: 'queued' },
};
const { steps: _steps, ...SUMMARY_EXAMPLE } = EXECUTION_EXAMPLE;
const PREFER_WAIT = {
  name: 'Prefer',
  required: false,
  description:
    '`wait=<seconds>` (RFC 7240): hold the answer until the execution is final or the seconds have passed (at most EXECUTION_WAIT_MAX_MS, 60 s by default), ' +
    'then answer it as it is; `Preference-Applied: wait=<seconds honoured>` says the wait was applied. An unreadable value is ignored (answered at once), and so is a wait beyond the requests held at once (EXECUTION_WAIT_MAX_HELD_PER_TENANT, 32 per tenant and replica).',
  schema: { type: 'string', example: 'wait=30' },
};

function idempotencyKey(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,255}$/.test(value))
    throw new AppError('validation_failed', 400, 'Idempotency-Key: 1-255 visible ASCII characters', [
      { field: 'Idempotency-Key', message: 'must be 1-255 visible ASCII characters' },
    ]);
  return value;
}

/** The 202 answer to a start. */
const accepted = ({ execution, status }: { execution: { id: string }; status: string }) => ({ run_id: execution.id, status });

const PREFER_WAIT_START = {
  name: 'Prefer',
  required: false,
  description:
    '`wait=<seconds>` (RFC 7240): hold the answer until the run is final or the seconds have passed (at most EXECUTION_WAIT_MAX_MS, 60 s by default): ' +
    '`200` with the finished execution when it ended within them, else the usual `202`; `Preference-Applied: wait=<seconds honoured>` either way. An unreadable value is ignored, and so is a wait beyond the requests held at once (EXECUTION_WAIT_MAX_HELD_PER_TENANT): the usual `202`.',
  schema: { type: 'string', example: 'wait=5' },
};
const FINISHED = {
  type: ExecutionResponseDto,
  description: 'With `Prefer: wait`: the run ended within the wait; the finished execution, whatever its final status',
  example: EXECUTION_EXAMPLE,
  headers: { 'Preference-Applied': { description: '`wait=<seconds>`: the wait honoured', schema: { type: 'string', example: 'wait=5' } } },
};

/** Aborted when the client has gone (or the answer is sent): a held request stops waiting. */
function closed(res: Response): AbortSignal {
  const gone = new AbortController();
  res.once('close', () => gone.abort());
  return gone.signal;
}

@ApiTag('executions', 'Runs of workflows: start one (202 and poll), list and read executions with every step, their logs, cancel.')
@Controller()
export class ExecutionsController {
  constructor(
    private readonly starter: ExecutionStarter,
    private readonly executions: ExecutionsService,
    private readonly waiter: ExecutionWaiter,
  ) {}

  @Post('v1/automations/run')
  @HttpCode(202)
  @RequireScopes('automations:run')
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({
    summary: 'Run an automation',
    description:
      'Starts the current version of a workflow with `input` and answers 202 with the run id at once; poll `GET /run/executions/{run_id}` until the status is final (`succeeded`, `failed`, `cancelled`, `timed_out`), ' +
      'or send `Prefer: wait=<seconds>` to have the answer held: `200` with the finished execution when the run ends within them (one request for a short run), else the 202. ' +
      '`status` is `queued` for a new run (accepted; it may already be running by the time you read it) and the current status of the first run for a repeated Idempotency-Key.',
  })
  @ApiHeader(PREFER_WAIT_START)
  @ApiAcceptedResponse(ACCEPTED)
  @ApiOkResponse(FINISHED)
  @ApiNotFoundResponse({ description: 'No such automation for this tenant' })
  @ApiConflictResponse({ description: 'The Idempotency-Key was used with another body, or the workflow is disabled' })
  @ApiPayloadTooLargeResponse({ description: 'The input is larger than RUN_INPUT_LIMIT_BYTES (default 1 MiB)' })
  async run(
    @CurrentPrincipal() p: Principal,
    @Body() body: RunAutomationRequestDto,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
    @Headers('prefer') prefer?: string,
  ) {
    const started = await this.starter.start(p, {
      workflowId: body.automation_id,
      input: body.input ?? {},
      trigger: { type: 'api', id: null },
      idempotencyKey: idempotencyKey(key),
    });
    return this.answerStart(p, started, preferredWaitSeconds(prefer), res);
  }

  @Post('run/workflows/:id/execute')
  @HttpCode(202)
  @RequireScopes('automations:run')
  @ApiHeader(IDEMPOTENCY)
  @ApiOperation({
    summary: 'Execute a workflow',
    description: 'The same start as `POST /v1/automations/run`, with the workflow id in the path: 202 with the run id; poll `GET /run/executions/{run_id}`.',
  })
  @ApiHeader(PREFER_WAIT_START)
  @ApiAcceptedResponse(ACCEPTED)
  @ApiOkResponse(FINISHED)
  @ApiConflictResponse({ description: 'The Idempotency-Key was used with another body, or the workflow is disabled' })
  @ApiPayloadTooLargeResponse({ description: 'The input is larger than RUN_INPUT_LIMIT_BYTES (default 1 MiB)' })
  async execute(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Body() body: ExecuteWorkflowRequestDto,
    @Res({ passthrough: true }) res: Response,
    @Headers('idempotency-key') key?: string,
    @Headers('prefer') prefer?: string,
  ) {
    const started = await this.starter.start(p, {
      workflowId: id,
      input: body.input ?? {},
      trigger: { type: 'api', id: null },
      idempotencyKey: idempotencyKey(key),
    });
    return this.answerStart(p, started, preferredWaitSeconds(prefer), res);
  }

  /**
   * A start's answer: 202 with the run id; with `Prefer: wait`, held until the run is final or the
   * wait has passed, and then 200 with the finished execution, or still 202 with its status.
   */
  private async answerStart(p: Principal, started: { execution: { id: string }; status: string }, wait: number | undefined, res: Response) {
    if (wait === undefined) return accepted(started);
    const answer = await this.waiter.afterStart(p, started.execution.id, wait, closed(res));
    if (answer.applied !== undefined) res.setHeader('Preference-Applied', `wait=${answer.applied}`);
    res.status(answer.status);
    return answer.body;
  }

  @Get('run/executions')
  @RequireScopes('executions:read')
  @ApiOperation({
    summary: 'List executions',
    description: 'Executions newest first, without their steps; filter by workflow, status, trigger type and creation time.',
  })
  @ApiPageResponse(ExecutionSummaryDto, { example: { data: [SUMMARY_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListExecutionsQueryDto) {
    return this.executions.list(p, query);
  }

  @Get('run/executions/:id')
  @RequireScopes('executions:read')
  @ApiHeader(PREFER_WAIT)
  @ApiOperation({
    summary: 'Get an execution',
    description:
      'Status, timings, input, output and error of an execution, and each step that ran (its latest attempt) with its input and output; secrets are redacted. ' +
      'With `Prefer: wait=<seconds>` the answer is held until the execution is final (or the seconds pass): one request instead of polling.',
  })
  @ApiOkResponse({
    type: ExecutionResponseDto,
    description: 'The execution (with `Prefer: wait`, once final or at the end of the wait, whatever its status then)',
    example: EXECUTION_EXAMPLE,
    headers: { 'Preference-Applied': { description: '`wait=<seconds>` when a `Prefer: wait` was honoured', schema: { type: 'string', example: 'wait=30' } } },
  })
  async get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Res({ passthrough: true }) res: Response, @Headers('prefer') prefer?: string) {
    const { execution, applied } = await this.waiter.get(p, id, preferredWaitSeconds(prefer), closed(res));
    if (applied !== undefined) res.setHeader('Preference-Applied', `wait=${applied}`);
    return execution;
  }

  @Get('run/executions/:id/logs')
  @RequireScopes('executions:read')
  @ApiOperation({
    summary: 'List the logs of an execution',
    description: 'Log lines of an execution, oldest first; filter by level and step id.',
  })
  @ApiPageResponse(ExecutionLogDto, {
    example: {
      data: [
        {
          id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8da0',
          step_id: 'double',
          level: 'info',
          message: 'transform double succeeded',
          data: { attempt: 1, ms: 1 },
          created_at: '2026-11-22T10:00:00.012Z',
        },
      ],
      next_cursor: null,
    },
  })
  logs(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() query: ListLogsQueryDto) {
    return this.executions.logs(p, id, query);
  }

  @Post('run/executions/:id/cancel')
  @HttpCode(200)
  @RequireScopes('executions:write')
  @ApiOperation({
    summary: 'Cancel an execution',
    description: 'Stops a queued, running or waiting execution: a running step is aborted and the execution ends `cancelled`.',
  })
  @ApiOkResponse({ type: ExecutionResponseDto, description: 'The cancelled execution', example: { ...EXECUTION_EXAMPLE, status: 'cancelled' } })
  @ApiConflictResponse({ description: 'The execution has already finished' })
  cancel(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string) {
    return this.executions.cancel(p, id);
  }
}
