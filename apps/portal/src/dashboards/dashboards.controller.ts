import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { DashboardsService } from './dashboards.service.js';
import { CreateDashboardRequestDto, DashboardDataQueryDto, UpdateDashboardRequestDto } from './dto/dashboard.request.dto.js';
import {
  DASHBOARD_EXAMPLE,
  DATA_EXAMPLE,
  DashboardDataResponseDto,
  DashboardResponseDto,
  type DashboardDataResponse,
  type DashboardResponse,
} from './dto/dashboard.response.dto.js';

@ApiTag('dashboards', "Dashboards of widgets computed from the tenant's own executions and tasks (a customer key sees its own numbers only).")
@Controller('portal/dashboards')
export class DashboardsController {
  constructor(private readonly dashboards: DashboardsService) {}

  @Post()
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Create a dashboard',
    description: 'Widgets: executions_per_day, failure_rate, slowest_workflows, most_failing_workflows, open_tasks, usage_quota.',
  })
  @ApiCreatedResponse({ type: DashboardResponseDto, example: DASHBOARD_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateDashboardRequestDto): Promise<DashboardResponse> {
    return this.dashboards.create(p, body);
  }

  @Get()
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'List dashboards', description: "The tenant environment's dashboards." })
  @ApiPageResponse(DashboardResponseDto, { example: { data: [DASHBOARD_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<DashboardResponse>> {
    return this.dashboards.list(p, query);
  }

  @Get(':id')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'Get a dashboard', description: 'One dashboard and its widgets (404 for an unknown id or another tenant’s).' })
  @ApiOkResponse({ type: DashboardResponseDto, example: DASHBOARD_EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<DashboardResponse> {
    return this.dashboards.get(p, id);
  }

  @Get(':id/data')
  @RequireScopes('portal:read')
  @ApiOperation({
    summary: "A dashboard's numbers",
    description:
      'Each widget computed for executions created in [from, to) (default: the last 30 days), optionally of one customer; open_tasks counts the tasks pending now; usage_quota is the current billing period against the plan. Counted by the run, task and subscription services from indexed queries.',
  })
  @ApiOkResponse({ type: DashboardDataResponseDto, example: DATA_EXAMPLE })
  data(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Query() query: DashboardDataQueryDto): Promise<DashboardDataResponse> {
    return this.dashboards.data(p, id, query);
  }

  @Patch(':id')
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Change a dashboard', description: 'Changes the fields sent; widgets sent replace the widgets.' })
  @ApiOkResponse({ type: DashboardResponseDto, example: DASHBOARD_EXAMPLE })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() body: UpdateDashboardRequestDto): Promise<DashboardResponse> {
    return this.dashboards.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Delete a dashboard', description: 'Deletes it; embed tokens made for it stop showing anything (404).' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.dashboards.delete(p, id);
  }
}
