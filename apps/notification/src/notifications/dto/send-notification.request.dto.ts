import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, IsUUID, MaxLength, MinLength } from 'class-validator';
import { IsNestedObject } from '@platform/service';
import type { ChannelKind } from '../../channels/dto/channel.request.dto.js';
import { RecipientsOverride } from './recipients.property.js';

/** A destination without a channel: a Slack or Teams webhook URL. */
export class AdHocDestinationDto {
  @ApiProperty({ enum: ['slack', 'teams'], example: 'slack' })
  @IsIn(['slack', 'teams'])
  kind!: Exclude<ChannelKind, 'email'>;

  @ApiProperty({
    example: 'https://hooks.slack.com/services/T000/B000/XXXXXXXX',
    description: 'The incoming webhook (or Teams Workflows) URL; sealed at rest, never returned',
  })
  @IsString()
  @MaxLength(2048)
  to!: string;
}

export class SendNotificationRequestDto {
  @ApiPropertyOptional({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01', description: 'The channel to send through (or `destination`)' })
  @IsOptional()
  @IsUUID()
  channel_id?: string;

  @ApiPropertyOptional({ type: AdHocDestinationDto, description: 'A Slack or Teams URL instead of a channel' })
  @IsOptional()
  @IsNestedObject(() => AdHocDestinationDto)
  destination?: AdHocDestinationDto;

  @RecipientsOverride(['ops@example.com'])
  to?: string[];

  @ApiPropertyOptional({ example: 'Deploy {{version}} finished', description: 'Subject (email) or title (Slack, Teams); a Mustache template' })
  @IsOptional()
  @IsString()
  @MaxLength(998)
  subject?: string;

  @ApiPropertyOptional({
    example: 'Version **{{version}}** is live. [Release notes]({{{notes_url}}})',
    description:
      'Markdown; a Mustache template over `variables` (`{{x}}` shows the value literally, `{{{x}}}` inserts it as Markdown). Required unless `template` is given.',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(40_000)
  body?: string;

  @ApiPropertyOptional({
    enum: ['execution_failed', 'task_created', 'task_assigned', 'api_key_expiring'],
    example: 'execution_failed',
    description: "A built-in template giving the subject and body (a send's own `subject` or `body` replaces the template's)",
  })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  template?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { version: '1.4.2', notes_url: 'https://example.com/notes' },
    description: 'Values for the templates',
  })
  @IsOptional()
  @IsObject()
  variables?: Record<string, unknown>;

  @ApiPropertyOptional({
    example: 'deploy-1.4.2',
    description: 'The same key (per environment) sends once: a repeat answers the first notification (409 with another body)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  idempotency_key?: string;
}
