import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { TriggerExecutionResponse, TriggerResponse } from './trigger.record.js';
import { TriggersService } from './triggers.service.js';
import { ListTriggerExecutionsQueryDto, ListTriggersQueryDto } from './dto/trigger-query.dto.js';
import { CreateTriggerRequestDto, UpdateTriggerRequestDto } from './dto/trigger.request.dto.js';

const uuid = new ParseUUIDPipe();

/** Schedules, event triggers and webhook triggers over HTTP. */
@ApiTags('triggers')
@Controller('triggers')
export class TriggersController {
  constructor(private readonly triggers: TriggersService) {}

  @Get()
  @RequireScopes('triggers:read')
  @ApiOperation({ summary: 'List triggers' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListTriggersQueryDto): Promise<Page<TriggerResponse>> {
    return this.triggers.list(p, q);
  }

  @Post()
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Create trigger' })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateTriggerRequestDto): Promise<TriggerResponse> {
    return this.triggers.create(p, body);
  }

  @Get(':id')
  @RequireScopes('triggers:read')
  @ApiOperation({ summary: 'Get a trigger' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Update a trigger' })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateTriggerRequestDto): Promise<TriggerResponse> {
    return this.triggers.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Delete a trigger and its executions' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.triggers.delete(p, id);
  }

  @Put(':id/enable')
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Enable trigger' })
  enable(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.setEnabled(p, id, true);
  }

  @Put(':id/disable')
  @RequireScopes('triggers:write')
  @ApiOperation({ summary: 'Disable trigger' })
  disable(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TriggerResponse> {
    return this.triggers.setEnabled(p, id, false);
  }

  @Get(':id/executions')
  @RequireScopes('triggers:read')
  @ApiOperation({ summary: 'List trigger executions (newest first)' })
  executions(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Query() q: ListTriggerExecutionsQueryDto,
  ): Promise<Page<TriggerExecutionResponse>> {
    return this.triggers.executions(p, id, q);
  }
}
