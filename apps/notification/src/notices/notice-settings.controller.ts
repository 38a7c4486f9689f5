import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBadRequestResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { ApiTag } from '@platform/service';
import { NOTICE_SETTINGS_EXAMPLE, NoticeSettingsResponseDto, PutNoticeSettingsRequestDto } from './dto/notice-settings.dto.js';
import type { NoticeSettingsResponse } from './notice-settings.record.js';
import { NoticeSettingsService } from './notice-settings.service.js';

/** Where the platform's own notices of the environment go (today: API keys about to expire). */
@ApiTag(
  'notifications',
  'Send email, Slack and Teams notifications, delivered durably with retries: channels with sealed credentials, sends with Markdown bodies and templates, and the delivery history.',
)
@Controller('notifications/notices')
export class NoticeSettingsController {
  constructor(private readonly settings: NoticeSettingsService) {}

  @Get()
  @RequireScopes('notifications:read')
  @ApiOperation({
    summary: 'Get the platform notice settings',
    description:
      'Where the platform sends its own notices for this environment: `api_key_expiring` (an API key expires within the notice window, 7 days by default). Null: the notice is not sent. Not for customer keys (403).',
  })
  @ApiOkResponse({ type: NoticeSettingsResponseDto, description: 'The settings', example: NOTICE_SETTINGS_EXAMPLE })
  @ApiForbiddenResponse({ description: 'A customer key, or a key narrowed with X-Scope-Key' })
  get(@CurrentPrincipal() p: Principal): Promise<NoticeSettingsResponse> {
    return this.settings.get(p);
  }

  @Put()
  @RequireScopes('notifications:write')
  @ApiOperation({
    summary: 'Set the platform notice settings',
    description:
      'Replaces the settings as a whole. `api_key_expiring`: `{ channel_id, to? }` sends the `api_key_expiring` template through that channel of the environment (`to`: email recipients) once per key about to expire, naming the key, its prefix and expiry (never the key); null turns it off. Not for customer keys (403).',
  })
  @ApiOkResponse({ type: NoticeSettingsResponseDto, description: 'The settings now in force', example: NOTICE_SETTINGS_EXAMPLE })
  @ApiBadRequestResponse({ description: 'A malformed body, or a channel_id that is not a channel of this environment (`api_key_expiring.channel_id`)' })
  @ApiForbiddenResponse({ description: 'A customer key, or a key narrowed with X-Scope-Key' })
  put(@CurrentPrincipal() p: Principal, @Body() body: PutNoticeSettingsRequestDto): Promise<NoticeSettingsResponse> {
    return this.settings.put(p, body);
  }
}
