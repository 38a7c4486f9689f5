import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { ChannelResponse } from './channel.record.js';
import { ChannelsService } from './channels.service.js';
import { ListChannelsQueryDto } from './dto/channel-query.dto.js';
import { CreateChannelRequestDto, TestChannelRequestDto, UpdateChannelRequestDto } from './dto/channel.request.dto.js';
import { CHANNEL_EXAMPLE, CHANNEL_TEST_EXAMPLE, ChannelResponseDto, ChannelTestResponseDto, EMAIL_CHANNEL_EXAMPLE } from './dto/channel.response.dto.js';

const uuid = new ParseUUIDPipe();

/** Notification channels: where notifications go (an SMTP server, a Slack webhook or bot, a Teams webhook). */
@ApiTag(
  'notifications',
  'Send email, Slack and Teams notifications, delivered durably with retries: channels with sealed credentials, sends with Markdown bodies and templates, and the delivery history.',
)
@Controller('notifications/channels')
export class ChannelsController {
  constructor(private readonly channels: ChannelsService) {}

  @Get()
  @RequireScopes('notifications:read')
  @ApiOperation({ summary: 'List notification channels', description: 'Channels of the environment (a customer key: its own), without their credentials.' })
  @ApiPageResponse(ChannelResponseDto, { example: { data: [CHANNEL_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListChannelsQueryDto): Promise<Page<ChannelResponse>> {
    return this.channels.list(p, q);
  }

  @Post()
  @RequireScopes('notifications:write')
  @ApiOperation({
    summary: 'Create a notification channel',
    description:
      'An `email` (SMTP with TLS or STARTTLS), `slack` (incoming webhook URL, or bot token and channel) or `teams` (incoming webhook or Workflows URL) channel. Credentials are sealed at rest and never returned.',
  })
  @ApiCreatedResponse({ type: ChannelResponseDto, description: 'The channel', example: CHANNEL_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateChannelRequestDto): Promise<ChannelResponse> {
    return this.channels.create(p, body);
  }

  @Get(':id')
  @RequireScopes('notifications:read')
  @ApiOperation({ summary: 'Get a notification channel', description: 'One channel by id, without its credentials (`secrets` names those that are set).' })
  @ApiOkResponse({ type: ChannelResponseDto, description: 'The channel', example: EMAIL_CHANNEL_EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<ChannelResponse> {
    return this.channels.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('notifications:write')
  @ApiOperation({
    summary: 'Update a notification channel',
    description: "Changes the fields sent. The settings object of the channel's kind replaces the stored one; a credential left out is kept.",
  })
  @ApiOkResponse({ type: ChannelResponseDto, description: 'The channel', example: CHANNEL_EXAMPLE })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateChannelRequestDto): Promise<ChannelResponse> {
    return this.channels.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('notifications:write')
  @ApiOperation({
    summary: 'Delete a notification channel',
    description: 'Deletes the channel; its notifications stay in the history, and those not delivered yet fail.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.channels.delete(p, id);
  }

  @Post(':id/test')
  @HttpCode(200)
  @RequireScopes('notifications:write')
  @ApiOperation({
    summary: 'Test a notification channel',
    description: 'Sends a short test message through the channel now (one attempt, no retries, not recorded in the history) and answers with the outcome.',
  })
  @ApiOkResponse({ type: ChannelTestResponseDto, description: 'The outcome of the attempt', example: CHANNEL_TEST_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such channel' })
  test(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: TestChannelRequestDto): Promise<ChannelTestResponseDto> {
    return this.channels.test(p, id, body.to);
  }
}
