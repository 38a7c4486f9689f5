import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Res } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { DeliveriesService } from './deliveries.service.js';
import type { DeliveryResponse, WebhookResponse } from './webhook.record.js';
import { WebhooksService } from './webhooks.service.js';
import { ListDeliveriesQueryDto, ListWebhooksQueryDto } from './dto/webhook-query.dto.js';
import { CreateWebhookRequestDto, UpdateWebhookRequestDto } from './dto/webhook.request.dto.js';
import {
  DELIVERY_EXAMPLE,
  DeliveryReplayedResponseDto,
  DeliveryResponseDto,
  REPLAYED_EXAMPLE,
  WEBHOOK_EXAMPLE,
  WEBHOOK_WITH_SECRET_EXAMPLE,
  WebhookResponseDto,
} from './dto/webhook.response.dto.js';

const uuid = new ParseUUIDPipe();

/** Managing webhooks: CRUD, secret rotation, the delivery log and replay. */
@ApiTag(
  'webhooks',
  'Start workflows from HTTP deliveries: webhooks with a public receiving address (`POST /webhooks/in/{id}`) verified by Standard Webhooks signatures or a token, their delivery log, and replay.',
)
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'List webhooks', description: 'Webhooks of the environment, without their secrets; filter by workflow and enabled.' })
  @ApiPageResponse(WebhookResponseDto, { example: { data: [WEBHOOK_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListWebhooksQueryDto): Promise<Page<WebhookResponse>> {
    return this.webhooks.list(p, q);
  }

  @Post()
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Create a webhook',
    description:
      'A receiving address (`url`) that runs the workflow with each accepted delivery. With `hmac` or `token` verification the answer carries the secret (`secret`): this answer only, store it now.',
  })
  @ApiCreatedResponse({ type: WebhookResponseDto, description: 'The webhook, with its secret (hmac, token)', example: WEBHOOK_WITH_SECRET_EXAMPLE })
  @ApiBadRequestResponse({ description: 'verification is missing, or verification or response is not an object: details names the field' })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookRequestDto): Promise<WebhookResponse> {
    return this.webhooks.create(p, body);
  }

  @Get(':id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'Get a webhook', description: 'One webhook by id, without its secret.' })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'The webhook', example: WEBHOOK_EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<WebhookResponse> {
    return this.webhooks.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Update a webhook',
    description: 'Changes the fields sent. Changing the verification type to `hmac` or `token` makes a new secret, returned in this answer only.',
  })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'The webhook (with `secret` when a new one was made)', example: WEBHOOK_EXAMPLE })
  @ApiBadRequestResponse({ description: 'verification or response is not an object: details names the field' })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateWebhookRequestDto): Promise<WebhookResponse> {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Delete a webhook', description: 'Deletes a webhook and its delivery log; its receiving address answers 404 from then on.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.webhooks.delete(p, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Rotate the secret of a webhook',
    description:
      'Replaces the signing secret or token: the new one is in this answer only, and the old one stops verifying at once. A webhook without verification is answered unchanged.',
  })
  @ApiOkResponse({ type: WebhookResponseDto, description: 'The webhook, with its new secret', example: WEBHOOK_WITH_SECRET_EXAMPLE })
  rotate(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<WebhookResponse> {
    return this.webhooks.rotateSecret(p, id);
  }

  @Get(':id/logs')
  @RequireScopes('webhooks:read')
  @ApiOperation({
    summary: 'List the deliveries of a webhook',
    description:
      'The delivery log, newest first: each request received (headers masked, the first 64 KiB of the body), its outcome and the run it started; filter by outcome and time.',
  })
  @ApiPageResponse(DeliveryResponseDto, { example: { data: [DELIVERY_EXAMPLE], next_cursor: null } })
  logs(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() q: ListDeliveriesQueryDto): Promise<Page<DeliveryResponse>> {
    return this.webhooks.logs(p, id, q);
  }

  @Post(':id/logs/:deliveryId/replay')
  @RequireScopes('webhooks:write')
  @ApiOperation({
    summary: 'Replay a delivery',
    description: 'Starts the workflow again with a stored, accepted delivery: a copy is recorded as a new delivery (`replay_of`) and starts a new run.',
  })
  @ApiAcceptedResponse({ type: DeliveryReplayedResponseDto, description: 'Accepted: the new delivery and its run', example: REPLAYED_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such webhook, or no such delivery of it' })
  @ApiConflictResponse({ description: 'Only accepted deliveries can be replayed' })
  async replay(
    @CurrentPrincipal() p: Principal,
    @Param('id', uuid) id: string,
    @Param('deliveryId', uuid) deliveryId: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Record<string, unknown>> {
    const answer = await this.deliveries.replay(p, id, deliveryId);
    res.status(answer.status);
    return answer.body;
  }
}
