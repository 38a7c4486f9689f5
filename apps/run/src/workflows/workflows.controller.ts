import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { DEFINITION_EXAMPLE } from './definition/definition.schema.js';
import type { DefinitionProblem } from './definition/workflow-definition.js';
import {
  CreateWorkflowRequestDto,
  GetWorkflowQueryDto,
  ListWorkflowsQueryDto,
  PatchWorkflowRequestDto,
  ValidateWorkflowRequestDto,
  ValidateWorkflowResponseDto,
  WorkflowResponseDto,
  type WorkflowResponse,
} from './dto/workflow.dto.js';
import { WorkflowsService } from './workflows.service.js';

const LONG = 'api/v1/workflow/workflows';
const SHORT = 'run/workflows';
const uuid = new ParseUUIDPipe();
const EXAMPLE = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9f',
  name: 'Double and notify',
  description: null,
  version: 1,
  status: 'active',
  input_schema: null,
  steps: DEFINITION_EXAMPLE,
  settings: {},
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

/** Workflow CRUD under both path forms; every update is a new immutable version. */
@ApiTag(
  'workflows',
  'Workflow definitions: versioned JSON steps (every PUT or PATCH makes a new immutable version), under `/run/workflows` and `/api/v1/workflow/workflows`.',
)
@Controller()
export class WorkflowsController {
  constructor(private readonly workflows: WorkflowsService) {}

  @Post([`${LONG}/validate`, `${SHORT}/validate`])
  @HttpCode(200)
  @RequireScopes('workflows:read')
  @ApiOperation({
    summary: 'Validate a workflow definition',
    description:
      'Checks a definition without saving it (step types, ids, gotos, expressions, the type of every step field) and lists every problem with its step id and JSON path; `valid` is true when there is none. ' +
      'Takes the body of create (`name` and `description` optional, checked when given), so a file that creates a workflow validates as it is.',
  })
  @ApiOkResponse({
    type: ValidateWorkflowResponseDto,
    description: 'The problems found (none: valid)',
    example: { valid: false, problems: [{ step_id: 'notify', path: 'steps[1].then[0].type', message: "unknown step type 'htp.request'" }] },
  })
  validate(@Body() body: ValidateWorkflowRequestDto): { valid: boolean; problems: DefinitionProblem[] } {
    const problems = this.workflows.validate({ steps: body.steps, input_schema: body.input_schema, settings: body.settings });
    return { valid: problems.length === 0, problems };
  }

  @Post([LONG, SHORT])
  @RequireScopes('workflows:write')
  @ApiOperation({
    summary: 'Create a workflow',
    description: 'Saves a definition as version 1 of a new workflow, after the same checks as validate (400 lists every problem in `details`).',
  })
  @ApiBody({ type: CreateWorkflowRequestDto })
  @ApiCreatedResponse({ type: WorkflowResponseDto, description: 'The workflow, version 1', example: EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.create(p, body);
  }

  @Get([LONG, SHORT])
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'List workflows', description: 'The current version of each workflow not deleted, by name; filter by status and name prefix.' })
  @ApiPageResponse(WorkflowResponseDto, { example: { data: [EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListWorkflowsQueryDto): Promise<Page<WorkflowResponse>> {
    return this.workflows.list(p, query);
  }

  @Get([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:read')
  @ApiOperation({
    summary: 'Get a workflow',
    description: 'The current version of a workflow, or one of its past versions with `?version=`, as it was saved (its own name, description and status).',
  })
  @ApiOkResponse({ type: WorkflowResponseDto, description: 'The workflow', example: EXAMPLE })
  @ApiNotFoundResponse({ description: 'Workflow not found' })
  @ApiNotFoundResponse({ description: 'Workflow version not found' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() query: GetWorkflowQueryDto): Promise<WorkflowResponse> {
    return this.workflows.get(p, id, query.version);
  }

  @Put([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:write')
  @ApiOperation({
    summary: 'Replace a workflow',
    description:
      'Replaces the whole definition (name, description, steps, input schema, settings): a new version; executions already started keep the version they run.',
  })
  @ApiOkResponse({ type: WorkflowResponseDto, description: 'The workflow, new version', example: { ...EXAMPLE, version: 2 } })
  @ApiNotFoundResponse({ description: 'Workflow not found' })
  replace(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: CreateWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.update(p, id, body, true);
  }

  @Patch([`${LONG}/:id`, `${SHORT}/:id`])
  @RequireScopes('workflows:write')
  @ApiOperation({
    summary: 'Change part of a workflow',
    description:
      'Changes the fields sent (name, description, status, steps, input schema, settings) and keeps the others: a new version. A disabled workflow cannot be started.',
  })
  @ApiOkResponse({ type: WorkflowResponseDto, description: 'The workflow, new version', example: { ...EXAMPLE, version: 2, status: 'disabled' } })
  @ApiNotFoundResponse({ description: 'Workflow not found' })
  patch(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: PatchWorkflowRequestDto): Promise<WorkflowResponse> {
    return this.workflows.update(p, id, body, false);
  }

  @Delete([`${LONG}/:id`, `${SHORT}/:id`])
  @HttpCode(204)
  @RequireScopes('workflows:write')
  @ApiOperation({
    summary: 'Delete a workflow',
    description: 'Deletes a workflow (softly: its versions stay for the executions that ran them); running executions finish, new starts are 404.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'Workflow not found' })
  async remove(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    await this.workflows.remove(p, id);
  }
}
