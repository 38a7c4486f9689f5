import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { DeliveriesService } from './deliveries.service.js';
import type { DeliveryResponse, WebhookResponse } from './webhook.record.js';
import { WebhooksService } from './webhooks.service.js';
import { ListDeliveriesQueryDto, ListWebhooksQueryDto } from './dto/webhook-query.dto.js';
import { CreateWebhookRequestDto, UpdateWebhookRequestDto } from './dto/webhook.request.dto.js';

const uuid = new ParseUUIDPipe();

/** Managing webhooks: CRUD, secret rotation, the delivery log and replay. */
@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(
    private readonly webhooks: WebhooksService,
    private readonly deliveries: DeliveriesService,
  ) {}

  @Get()
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'List webhooks' })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListWebhooksQueryDto): Promise<Page<WebhookResponse>> {
    return this.webhooks.list(p, q);
  }

  @Post()
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Create webhook; the secret (hmac, token) is in this answer only' })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookRequestDto): Promise<WebhookResponse> {
    return this.webhooks.create(p, body);
  }

  @Get(':id')
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'Get a webhook' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<WebhookResponse> {
    return this.webhooks.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Update a webhook' })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateWebhookRequestDto): Promise<WebhookResponse> {
    return this.webhooks.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Delete a webhook and its delivery log' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.webhooks.delete(p, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Replace the secret; the new one is in this answer only, the old one stops at once' })
  rotate(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<WebhookResponse> {
    return this.webhooks.rotateSecret(p, id);
  }

  @Get(':id/logs')
  @RequireScopes('webhooks:read')
  @ApiOperation({ summary: 'Get webhook logs (newest first)' })
  logs(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() q: ListDeliveriesQueryDto): Promise<Page<DeliveryResponse>> {
    return this.webhooks.logs(p, id, q);
  }

  @Post(':id/logs/:deliveryId/replay')
  @RequireScopes('webhooks:write')
  @ApiOperation({ summary: 'Start the run again from a stored delivery' })
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
