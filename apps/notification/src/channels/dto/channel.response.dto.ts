import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { ChannelResponse } from '../channel.record.js';
import { CHANNEL_KINDS, SMTP_SECURITY } from './channel.request.dto.js';

export const CHANNEL_EXAMPLE: ChannelResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01',
  name: 'ops-alerts',
  kind: 'slack',
  slack: { mode: 'webhook', channel: null },
  secrets: ['webhook_url'],
  enabled: true,
  customer_id: null,
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const EMAIL_CHANNEL_EXAMPLE: ChannelResponse = {
  ...CHANNEL_EXAMPLE,
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f02',
  name: 'mail',
  kind: 'email',
  slack: undefined,
  email: {
    host: 'smtp.example.com',
    port: 587,
    security: 'starttls',
    username: 'notifications@example.com',
    from: 'Acme Alerts <alerts@example.com>',
    reply_to: null,
    to: ['ops@example.com'],
    ca: false,
  },
  secrets: ['password'],
};

export const CHANNEL_TEST_EXAMPLE = { ok: true, status_code: 200, error: null, duration_ms: 182 };

export class EmailSettingsResponseDto {
  @ApiProperty({ example: 'smtp.example.com' })
  host!: string;

  @ApiProperty({ type: 'integer', example: 587 })
  port!: number;

  @ApiProperty({ enum: SMTP_SECURITY, example: 'starttls' })
  security!: string;

  @ApiProperty({ type: String, nullable: true, example: 'notifications@example.com' })
  username!: string | null;

  @ApiProperty({ example: 'Acme Alerts <alerts@example.com>' })
  from!: string;

  @ApiProperty({ type: String, nullable: true, example: 'support@example.com' })
  reply_to!: string | null;

  @ApiProperty({ type: [String], example: ['ops@example.com'], description: 'Default recipients' })
  to!: string[];

  @ApiProperty({ example: false, description: 'Whether a certificate to trust is configured' })
  ca!: boolean;
}

export class SlackSettingsResponseDto {
  @ApiProperty({ enum: ['webhook', 'bot'], example: 'webhook', description: 'webhook: an incoming webhook URL; bot: a bot token with a channel' })
  mode!: string;

  @ApiProperty({ type: String, nullable: true, example: '#alerts' })
  channel!: string | null;
}

export class TeamsSettingsResponseDto {}

export class ChannelResponseDto {
  @ApiProperty({ format: 'uuid', example: CHANNEL_EXAMPLE.id })
  id!: string;

  @ApiProperty({ example: 'ops-alerts' })
  name!: string;

  @ApiProperty({ enum: CHANNEL_KINDS, example: 'slack' })
  kind!: string;

  @ApiPropertyOptional({ type: EmailSettingsResponseDto, description: 'email channels', example: EMAIL_CHANNEL_EXAMPLE.email })
  email?: EmailSettingsResponseDto;

  @ApiPropertyOptional({ type: SlackSettingsResponseDto, description: 'slack channels', example: CHANNEL_EXAMPLE.slack })
  slack?: SlackSettingsResponseDto;

  @ApiPropertyOptional({ type: TeamsSettingsResponseDto, description: 'teams channels (the URL is write-only)', example: {} })
  teams?: TeamsSettingsResponseDto;

  @ApiProperty({ type: [String], example: ['webhook_url'], description: 'The write-only settings that are set; their values are never returned' })
  secrets!: string[];

  @ApiProperty({ example: true })
  enabled!: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The customer owning the channel (customer keys)' })
  customer_id!: string | null;

  @ApiProperty({ format: 'date-time', example: CHANNEL_EXAMPLE.created_at })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: CHANNEL_EXAMPLE.updated_at })
  updated_at!: string;
}

export class ChannelTestResponseDto {
  @ApiProperty({ example: true, description: 'Whether the test message was accepted by the remote side' })
  ok!: boolean;

  @ApiProperty({ type: 'integer', nullable: true, example: 200, description: 'HTTP status (Slack, Teams) or SMTP reply code (email)' })
  status_code!: number | null;

  @ApiProperty({ type: String, nullable: true, example: null, description: 'Why it failed' })
  error!: string | null;

  @ApiProperty({ type: 'integer', example: 182 })
  duration_ms!: number;
}
