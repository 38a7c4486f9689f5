import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiGoneResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiPayloadTooLargeResponse,
} from '@nestjs/swagger';
import { Public } from '@platform/auth';
import { ApiTag } from '@platform/service';
import { TaskLinksService } from './task-links.service.js';
import { TASKS_TAG_DESCRIPTION } from './tasks.controller.js';
import { CompleteTaskRequestDto } from './dto/task.request.dto.js';
import { PUBLIC_TASK_EXAMPLE, PublicTaskDecidedResponseDto, PublicTaskResponseDto, type PublicTaskResponse } from './dto/task.response.dto.js';

const TOKEN_PARAM = {
  name: 'token',
  description: 'The signed token of a task link (from `POST /tasks/{id}/links`)',
  schema: { type: 'string', example: 'eyJ0IjoiMDE5NGYxYzIifQ.3q2-7wAAAAA' },
};

/** The public class: a signed link is the only credential. Registered before TasksController so `/tasks/public/…` is never read as `/tasks/{id}`. */
@ApiTag('tasks', TASKS_TAG_DESCRIPTION)
@Controller('tasks/public')
export class PublicTasksController {
  constructor(private readonly links: TaskLinksService) {}

  @Get(':token')
  @Public()
  @ApiOperation({
    summary: 'Show a task through a signed link',
    description:
      'The task’s title, description, form and the decisions the link may make. Reading changes nothing: mail scanners that follow the link decide nothing.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiOkResponse({ type: PublicTaskResponseDto, description: 'The task as the link shows it', example: PUBLIC_TASK_EXAMPLE })
  @ApiNotFoundResponse({ description: 'Not a valid link (malformed, tampered, or for no task)' })
  @ApiGoneResponse({ description: 'The link has expired' })
  @ApiConflictResponse({ description: 'The link was used, or the task is no longer pending' })
  show(@Param('token') token: string): Promise<PublicTaskResponse> {
    return this.links.show(token);
  }

  @Post(':token')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Decide a task through a signed link',
    description: 'Completes the task once with one of the link’s decisions and the form data; the link is used up in the same transaction.',
  })
  @ApiParam(TOKEN_PARAM)
  @ApiOkResponse({
    type: PublicTaskDecidedResponseDto,
    description: 'Decided',
    example: { task_id: PUBLIC_TASK_EXAMPLE.task_id, status: 'completed', decision: 'approve', data: {} },
  })
  @ApiBadRequestResponse({ description: 'A decision the link may not make, or data that does not match the form (the task stays open, the link unused)' })
  @ApiNotFoundResponse({ description: 'Not a valid link (malformed, tampered, or for no task)' })
  @ApiGoneResponse({ description: 'The link has expired' })
  @ApiConflictResponse({ description: 'The link was used, or the task is no longer pending' })
  @ApiPayloadTooLargeResponse({ description: '`data` is larger than TASK_DATA_LIMIT_BYTES (default 512 KiB as JSON); code data_too_large' })
  submit(@Param('token') token: string, @Body() body: CompleteTaskRequestDto): Promise<Record<string, unknown>> {
    return this.links.submit(token, body);
  }
}
