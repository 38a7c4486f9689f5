import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsNestedObject, MaxItems } from '@platform/service';

import { CHANNEL_KINDS, SMTP_SECURITY, type ChannelKind, type SmtpSecurity } from '../../delivery/channel-kinds.js';

export { CHANNEL_KINDS, SMTP_SECURITY, type ChannelKind, type SmtpSecurity };

const URL_RULES = { protocols: ['https', 'http'], require_tld: false, require_protocol: true };

/** SMTP through nodemailer; `password` is write-only (sealed at rest, never returned). */
export class EmailSettingsDto {
  @ApiProperty({ example: 'smtp.example.com', description: 'SMTP server host name' })
  @IsString()
  @MinLength(1)
  @MaxLength(253)
  host!: string;

  @ApiProperty({ type: 'integer', example: 587, description: '465 for implicit TLS, 587 for STARTTLS' })
  @IsInt()
  @Min(1)
  @Max(65535)
  port!: number;

  @ApiProperty({
    enum: SMTP_SECURITY,
    example: 'starttls',
    description: 'tls: TLS from the first byte; starttls: upgrade required (a server that does not offer it is refused)',
  })
  @IsIn(SMTP_SECURITY)
  security!: SmtpSecurity;

  @ApiPropertyOptional({ example: 'notifications@example.com', description: 'SMTP login user' })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  username?: string;

  @ApiPropertyOptional({ example: 'app-password-123', description: 'SMTP login password; write-only, never returned', writeOnly: true })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  password?: string;

  @ApiProperty({ example: 'Acme Alerts <alerts@example.com>', description: 'The From header' })
  @IsString()
  @MinLength(3)
  @MaxLength(320)
  from!: string;

  @ApiPropertyOptional({ example: 'support@example.com', description: 'The Reply-To header' })
  @IsOptional()
  @IsEmail()
  reply_to?: string;

  @ApiPropertyOptional({ type: [String], example: ['ops@example.com'], description: 'Default recipients when a send names none' })
  @IsOptional()
  @MaxItems(50)
  @IsEmail({}, { each: true })
  to?: string[];

  @ApiPropertyOptional({
    example: '-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----',
    description: "A PEM certificate to trust for this server (a private CA or a self-signed relay); the server's certificate is always verified",
  })
  @IsOptional()
  @IsString()
  @MaxLength(20_000)
  @Matches(/-----BEGIN CERTIFICATE-----/, { message: 'must be a PEM certificate' })
  ca?: string;
}

/** An incoming webhook URL, or a bot token with a channel; both secrets are write-only. */
export class SlackSettingsDto {
  @ApiPropertyOptional({
    example: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
    description: 'Incoming webhook URL (write-only: it is the credential)',
    writeOnly: true,
  })
  @IsOptional()
  @IsUrl(URL_RULES)
  @MaxLength(2048)
  webhook_url?: string;

  @ApiPropertyOptional({ example: 'xoxb-1234-5678-abcdef', description: 'Bot token for chat.postMessage (write-only)', writeOnly: true })
  @IsOptional()
  @IsString()
  @Matches(/^xox[a-z]-[A-Za-z0-9-]+$/, { message: 'must be a Slack token (xoxb-…)' })
  bot_token?: string;

  @ApiPropertyOptional({ example: '#alerts', description: 'Channel name or id for the bot token' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  channel?: string;
}

/** An incoming webhook or a Workflows (Power Automate) URL, posted Adaptive Cards; write-only. */
export class TeamsSettingsDto {
  @ApiProperty({
    example: 'https://prod-00.westeurope.logic.azure.com/workflows/abc/triggers/manual/paths/invoke?sig=xyz',
    description: 'Incoming webhook or Workflows URL (write-only: it is the credential)',
    writeOnly: true,
  })
  @IsUrl(URL_RULES)
  @MaxLength(2048)
  webhook_url!: string;
}

export class CreateChannelRequestDto {
  @ApiProperty({ example: 'ops-alerts' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiProperty({ enum: CHANNEL_KINDS, example: 'slack', description: 'Which settings object the channel takes: `email`, `slack` or `teams`' })
  @IsIn(CHANNEL_KINDS)
  kind!: ChannelKind;

  @ApiPropertyOptional({ type: EmailSettingsDto, description: 'Required when kind is email' })
  @IsOptional()
  @IsNestedObject(() => EmailSettingsDto)
  email?: EmailSettingsDto;

  @ApiPropertyOptional({
    type: SlackSettingsDto,
    description: 'Required when kind is slack',
    example: { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX' },
  })
  @IsOptional()
  @IsNestedObject(() => SlackSettingsDto)
  slack?: SlackSettingsDto;

  @ApiPropertyOptional({ type: TeamsSettingsDto, description: 'Required when kind is teams' })
  @IsOptional()
  @IsNestedObject(() => TeamsSettingsDto)
  teams?: TeamsSettingsDto;

  @ApiPropertyOptional({ default: true, example: true, description: 'A disabled channel refuses sends (400)' })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

/** The kind never changes; the settings object of the channel's kind replaces the stored one, and a secret left out is kept. */
export class UpdateChannelRequestDto {
  @ApiPropertyOptional({ example: 'ops-alerts' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ type: EmailSettingsDto, description: 'email channels only' })
  @IsOptional()
  @IsNestedObject(() => EmailSettingsDto)
  email?: EmailSettingsDto;

  @ApiPropertyOptional({ type: SlackSettingsDto, description: 'slack channels only', example: { bot_token: 'xoxb-1234-5678-abcdef', channel: '#alerts' } })
  @IsOptional()
  @IsNestedObject(() => SlackSettingsDto)
  slack?: SlackSettingsDto;

  @ApiPropertyOptional({ type: TeamsSettingsDto, description: 'teams channels only' })
  @IsOptional()
  @IsNestedObject(() => TeamsSettingsDto)
  teams?: TeamsSettingsDto;

  @ApiPropertyOptional({ example: false })
  @IsOptional()
  @IsBoolean()
  enabled?: boolean;
}

export class TestChannelRequestDto {
  @ApiPropertyOptional({
    type: [String],
    example: ['me@example.com'],
    description: "email channels: recipients of the test message (default: the channel's `to`)",
  })
  @IsOptional()
  @MaxItems(10)
  @IsEmail({}, { each: true })
  to?: string[];
}
