import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { DEFINITION_EXAMPLE } from './definition/definition.schema.js';
import type { DefinitionProblem } from './definition/workflow-definition.js';
import { CreateWorkflowRequestDto, GetWorkflowQueryDto, ListWorkflowsQueryDto, PatchWorkflowRequestDto, WorkflowDefinitionDto, type WorkflowResponse } from './dto/workflow.dto.js';
import { WorkflowsService } from './workflows.service.js';

const LONG = 'api/v1/workflow/workflows';
const SHORT = 'run/workflows';
const uuid = new ParseUUIDPipe();
const EXAMPLE = { id: '0194…', name: 'Double and notify', description: null, version: 1, status: 'active', input_schema: null, steps: DEFINITION_EXAMPLE, settings: {}, created_at: '2026-11-22T10:00:00.000Z', updated_at: '2026-11-22T10:00:00.000Z' };

/** Workflow CRUD under both path forms; every update is a new immutable version. */
@ApiTags('workflows')
@ApiExtraModels(WorkflowDefinitionDto)
@Controller()
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post([`${LONG}/validate`, `${SHORT}/validate`])
  @HttpCode(200)
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'Check a definition without saving it: every problem with its step id and path' })
  @ApiOkResponse({ schema: { example: { valid: false, problems: [{ step_id: 'notify', path: 'steps[1].then[0].type', message: "unknown step type 'htp.request'" }] } } })
  validate(@Body() body: WorkflowDefinitionDto): { valid: boolean; problems: DefinitionProblem[] } {
    const problems = this.workflows.validate({ steps: body.steps, input_schema: body.input_schema, settings: body.settings });
    return { valid: problems.length === 0, problems };
  }

  @Post([LONG, SHORT])
  @RequireScopes('workflows:write')
  @ApiOperation({ summary: 'Create a workflow (version 1)' })
  @ApiBody({ type: CreateWorkflowRequestDto })
  @ApiCreatedResponse({ schema: { example: EXAMPLE } })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.create(p, body);
  }

  @Get([LONG, SHORT])
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'List workflows (current versions)' })
  @ApiOkResponse({ schema: { example: { data: [EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListWorkflowsQueryDto): Promise<Page<WorkflowResponse>> {
    return this.workflows.list(p, query);
  }

  @Get([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'Get a workflow, or one of its past versions with ?version=' })
  @ApiOkResponse({ schema: { example: EXAMPLE } })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() query: GetWorkflowQueryDto): Promise<WorkflowResponse> {
    return this.workflows.get(p, id, query.version);
  }

  @Put([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:write')
  @ApiOperation({ summary: 'Replace a workflow: a new version' })
  @ApiOkResponse({ schema: { example: { ...EXAMPLE, version: 2 } } })
  replace(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: CreateWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.update(p, id, body, true);
  }

  @Patch([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:write')
  @ApiOperation({ summary: 'Change part of a workflow (name, status, steps, …): a new version' })
  @ApiOkResponse({ schema: { example: { ...EXAMPLE, version: 2 } } })
  patch(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: PatchWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.update(p, id, body, false);
  }

  @Delete([`${LONG}/:id`, `${SHORT}/:id`])
  @HttpCode(204)
  @RequireScopes('workflows:write')
  @ApiOperation({ summary: 'Delete a workflow; running executions finish' })
  @ApiNoContentResponse()
  async remove(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    await this.workflows.remove(p, id);
  }
}
