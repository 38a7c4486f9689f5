import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiPayloadTooLargeResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { CompletionService } from './completion.service.js';
import type { TaskResponse } from './task.record.js';
import { TaskLinksService } from './task-links.service.js';
import { TasksService } from './tasks.service.js';
import { ListTasksQueryDto } from './dto/task-query.dto.js';
import { AssignTaskRequestDto, CompleteTaskRequestDto, CreateTaskLinkRequestDto } from './dto/task.request.dto.js';
import {
  AGENT_TASK_EXAMPLE,
  COMPLETED_TASK_EXAMPLE,
  LINK_EXAMPLE,
  TASK_EXAMPLE,
  TaskLinkResponseDto,
  TaskResponseDto,
  type TaskLinkResponse,
} from './dto/task.response.dto.js';

const uuid = new ParseUUIDPipe();

export const TASKS_TAG_DESCRIPTION =
  'Human tasks: approval and form steps pause their execution until a person decides. List, read, assign and complete tasks; signed single-use links (`/tasks/public/{token}`) let people without an account decide.';

/** Human tasks over HTTP: list, read, assign, complete, and make signed links. */
@ApiTag('tasks', TASKS_TAG_DESCRIPTION)
@Controller('tasks')
export class TasksController {
  constructor(
    private readonly tasks: TasksService,
    private readonly completion: CompletionService,
    private readonly links: TaskLinksService,
  ) {}

  @Get()
  @RequireScopes('tasks:read')
  @ApiOperation({
    summary: 'List pending tasks',
    description:
      'Tasks of the environment, oldest first; pending ones unless `status` says otherwise. Filter by assignee (`me` for the calling user), workflow, execution, AI agent run and deadline. `origin` tells what made each task: an execution step, or an AI agent tool call waiting for approval (its tool and arguments in `context`). A customer key sees only its customer’s tasks.',
  })
  @ApiPageResponse(TaskResponseDto, { example: { data: [TASK_EXAMPLE, AGENT_TASK_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListTasksQueryDto): Promise<Page<TaskResponse>> {
    return this.tasks.list(p, q);
  }

  @Get(':id')
  @RequireScopes('tasks:read')
  @ApiOperation({
    summary: 'Get task details',
    description:
      'One task with what the person needs to decide: the form (JSON Schema with UI hints), the workflow name, the execution and the values the step chose to show. An AI agent approval shows the agent, the tool and its arguments in `context`; approving may change the arguments (`data.arguments`, checked against the tool’s parameters) and add a `comment`.',
  })
  @ApiOkResponse({ type: TaskResponseDto, description: 'The task', example: TASK_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such task in this tenant' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<TaskResponse> {
    return this.tasks.get(p, id);
  }

  @Post(':id/assign')
  @HttpCode(200)
  @RequireScopes('tasks:write')
  @ApiOperation({
    summary: 'Assign task',
    description: 'Gives a pending task to a user who is a member of the tenant (`user_id`) or to one of its teams (`team_id`); emits `task.task.assigned`.',
  })
  @ApiOkResponse({
    type: TaskResponseDto,
    description: 'The task, with its new assignee',
    example: { ...TASK_EXAMPLE, assignee: { user_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01' } },
  })
  @ApiBadRequestResponse({ description: 'Neither or both of user_id and team_id, or not a user or team of this tenant' })
  @ApiNotFoundResponse({ description: 'No such task in this tenant' })
  @ApiConflictResponse({ description: 'The task is no longer pending (completed, expired or cancelled)' })
  assign(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: AssignTaskRequestDto): Promise<TaskResponse> {
    return this.tasks.assign(p, id, body);
  }

  @Post(':id/complete')
  @HttpCode(200)
  @RequireScopes('tasks:write')
  @ApiOperation({
    summary: 'Complete task',
    description:
      'Records the decision (`approve`/`reject` for an approval, `submit`/`reject` for a form) and the data, validated against the form’s JSON Schema; the waiting execution then resumes with the step output `{ decision, data, completed_by, completed_at }`. ' +
      'Allowed to the assignee, members of the assigned team, tenant keys with `tasks:write`, and a customer key for its customer’s tasks.',
  })
  @ApiOkResponse({ type: TaskResponseDto, description: 'The completed task', example: COMPLETED_TASK_EXAMPLE })
  @ApiBadRequestResponse({
    description: 'A decision this task does not take, or data that does not match the form (each field named in `details`); the task stays open',
  })
  @ApiForbiddenResponse({ description: 'The caller is not the assignee, not in the assigned team, and not a tenant key' })
  @ApiNotFoundResponse({ description: 'No such task in this tenant' })
  @ApiConflictResponse({ description: 'The task was already completed, has expired, or was cancelled' })
  @ApiPayloadTooLargeResponse({ description: '`data` is larger than TASK_DATA_LIMIT_BYTES (default 512 KiB as JSON); code data_too_large' })
  complete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: CompleteTaskRequestDto): Promise<TaskResponse> {
    return this.completion.complete(p, id, body);
  }

  @Post(':id/links')
  @RequireScopes('tasks:write')
  @ApiOperation({
    summary: 'Create a signed task link',
    description:
      'A signed, expiring, single-use address for someone without an account: `GET` on it shows the task’s title and form and changes nothing; `POST` decides once, with one of the link’s decisions. It stops working after use, expiry or the task’s completion.',
  })
  @ApiCreatedResponse({ type: TaskLinkResponseDto, description: 'The link', example: LINK_EXAMPLE })
  @ApiBadRequestResponse({ description: 'decisions holds a decision this task does not take (details names decisions)' })
  @ApiNotFoundResponse({ description: 'No such task in this tenant' })
  @ApiConflictResponse({ description: 'The task is no longer pending' })
  createLink(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: CreateTaskLinkRequestDto): Promise<TaskLinkResponse> {
    return this.links.create(p, id, body);
  }
}
