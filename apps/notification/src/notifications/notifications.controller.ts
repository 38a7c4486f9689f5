import { Body, Controller, Get, Headers, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiConflictResponse,
  ApiHeader,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTooManyRequestsResponse,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { NotificationQueued } from '@platform/messaging';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { NotificationResponse } from './notification.record.js';
import { NotificationsService } from './notifications.service.js';
import { NotificationHistoryQueryDto } from './dto/notification-query.dto.js';
import { NOTIFICATION_EXAMPLE, NotificationQueuedResponseDto, NotificationResponseDto, QUEUED_EXAMPLE } from './dto/notification.response.dto.js';
import { SendNotificationRequestDto } from './dto/send-notification.request.dto.js';

/** Sending notifications and their delivery history. */
@ApiTag(
  'notifications',
  'Send email, Slack and Teams notifications, delivered durably with retries: channels with sealed credentials, sends with Markdown bodies and templates, and the delivery history.',
)
@Controller('notifications')
export class NotificationsController {
  constructor(private readonly notifications: NotificationsService) {}

  @Post('send')
  @HttpCode(202)
  @RequireScopes('notifications:send')
  @ApiOperation({
    summary: 'Send a notification',
    description:
      "Accepts a notification for a channel (`channel_id`) or an ad-hoc Slack or Teams URL (`destination`). The body is Markdown and, with the subject, a Mustache template over `variables`; it is rendered per kind (HTML and text email, Slack mrkdwn, a Teams Adaptive Card). Stored before the answer and delivered asynchronously with retries; the same `idempotency_key` sends once. Over the tenant's sending limit: 429 with Retry-After.",
  })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'Same as `idempotency_key` in the body (the body wins when both are given)',
    example: 'deploy-1.4.2',
  })
  @ApiAcceptedResponse({ type: NotificationQueuedResponseDto, description: 'Accepted and queued', example: QUEUED_EXAMPLE })
  @ApiConflictResponse({ description: 'The idempotency_key was used with another request' })
  @ApiTooManyRequestsResponse({ description: 'The sending limit per minute or per day is reached (Retry-After)' })
  send(@CurrentPrincipal() p: Principal, @Body() b: SendNotificationRequestDto, @Headers('idempotency-key') key?: string): Promise<NotificationQueued> {
    return this.notifications.send(p, {
      channelId: b.channel_id,
      destination: b.destination,
      to: b.to,
      subject: b.subject,
      body: b.body,
      template: b.template,
      variables: b.variables,
      idempotencyKey: b.idempotency_key ?? (key?.trim().slice(0, 255) || undefined),
      source: 'api',
    });
  }

  @Get('history')
  @RequireScopes('notifications:read')
  @ApiOperation({
    summary: 'Get notification history',
    description: 'Notifications newest first, each with its attempts (time, outcome, remote status code, error); filter by channel, status and time.',
  })
  @ApiPageResponse(NotificationResponseDto, { example: { data: [NOTIFICATION_EXAMPLE], next_cursor: null } })
  history(@CurrentPrincipal() p: Principal, @Query() q: NotificationHistoryQueryDto): Promise<Page<NotificationResponse>> {
    return this.notifications.history(p, q);
  }

  @Get('history/:id')
  @RequireScopes('notifications:read')
  @ApiOperation({ summary: 'Get a notification', description: 'One notification with its status and every attempt.' })
  @ApiOkResponse({ type: NotificationResponseDto, description: 'The notification', example: NOTIFICATION_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such notification' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<NotificationResponse> {
    return this.notifications.get(p, id);
  }
}
