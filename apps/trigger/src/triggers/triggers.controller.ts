import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { TriggerExecutionResponse, TriggerResponse } from './trigger.record.js';
import { TriggersService } from './triggers.service.js';
import { ListTriggerExecutionsQueryDto, ListTriggersQueryDto } from './dto/trigger-query.dto.js';
import { CreateTriggerRequestDto, UpdateTriggerRequestDto } from './dto/trigger.request.dto.js';
import { TRIGGER_EXAMPLE, TRIGGER_EXECUTION_EXAMPLE, TriggerExecutionResponseDto, TriggerResponseDto } from './dto/trigger.response.dto.js';

const uuid = new ParseUUIDPipe();

/** Schedules, event triggers and webhook triggers over HTTP. */
@ApiTag(
  'triggers',
  'Start workflows automatically: on a schedule (cron or interval), on a platform event, or on a webhook delivery; each firing is recorded as a trigger execution.',
)
@Controller('triggers')
export class TriggersController {
  constructor(private readonly triggers: TriggersService) {}

  @Get()
  @RequireScopes('triggers:read')
  @ApiOperation({ summary: 'List triggers', description: 'Triggers of the environment; filter by type, status and workflow.' })
  @ApiPageResponse(TriggerResponseDto, { example: { data: [TRIGGER_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListTriggersQueryDto): Promise<Page<TriggerResponse>> {
    return this.triggers.list(p, q);
  }

  @Post()
  @RequireScopes('triggers:write')
  @ApiOperation({
    summary: 'Create a trigger',
    description:
      'A schedule (`schedule.cron` or `schedule.interval_seconds`), event (`event.type`, optional JSONata `event.filter`) or webhook (`webhook_id`) trigger of a workflow; `input` is the run input, a literal object or a JSONata expression over the tick or event. An enabled schedule starts from now.',
  })
  @ApiCreatedResponse({ type: TriggerResponseDto, description: 'The trigger', example: TRIGGER_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateTriggerRequestDto): Promise<TriggerResponse> {
    return this.triggers.create(p, body);
  }

  @Get(':id')
  @RequireScopes('triggers:read')
  @ApiOperation({ summary: 'Get a trigger', description: 'One trigger by id, with its next tick when it is an enabled schedule.' })
  @ApiOkResponse({ type: TriggerResponseDto, description: 'The trigger', example: TRIGGER_EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Update a trigger', description: 'Changes the fields sent; a changed schedule restarts from now.' })
  @ApiOkResponse({ type: TriggerResponseDto, description: 'The trigger', example: TRIGGER_EXAMPLE })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateTriggerRequestDto): Promise<TriggerResponse> {
    return this.triggers.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Delete a trigger', description: 'Deletes a trigger and its executions; runs it already started go on.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.triggers.delete(p, id);
  }

  @Put(':id/enable')
  @RequireScopes('triggers:write')
  @ApiOperation({
    summary: 'Enable a trigger',
    description: 'Starts firing again; a schedule restarts from now (ticks missed while disabled are not fired). Enabling an enabled trigger changes nothing.',
  })
  @ApiOkResponse({ type: TriggerResponseDto, description: 'The trigger', example: TRIGGER_EXAMPLE })
  enable(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.setEnabled(p, id, true);
  }

  @Put(':id/disable')
  @RequireScopes('triggers:write')
  @ApiOperation({
    summary: 'Disable a trigger',
    description: 'Stops firing at once: once this answers, no replica fires it. Disabling a disabled trigger changes nothing.',
  })
  @ApiOkResponse({ type: TriggerResponseDto, description: 'The trigger', example: { ...TRIGGER_EXAMPLE, status: 'disabled', next_fire_at: null } })
  disable(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.setEnabled(p, id, false);
  }

  @Get(':id/executions')
  @RequireScopes('triggers:read')
  @ApiOperation({
    summary: 'List the executions of a trigger',
    description: 'Each firing of the trigger, newest first: when it was due, the run it started, or why it was skipped or failed; filter by status.',
  })
  @ApiPageResponse(TriggerExecutionResponseDto, { example: { data: [TRIGGER_EXECUTION_EXAMPLE], next_cursor: null } })
  executions(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Query() q: ListTriggerExecutionsQueryDto,
  ): Promise<Page<TriggerExecutionResponse>> {
    return this.triggers.executions(p, id, q);
  }
}
