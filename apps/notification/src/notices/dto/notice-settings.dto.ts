import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsUUID } from 'class-validator';
import { IsNestedObject } from '@platform/service';
import { RecipientsOverride } from '../../notifications/dto/recipients.property.js';

export const NOTICE_SETTINGS_EXAMPLE = {
  api_key_expiring: { channel_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01', to: ['security@example.com'] },
  updated_at: '2026-11-24T10:00:00.000Z',
};

export class NoticeTargetDto {
  @ApiProperty({ format: 'uuid', example: NOTICE_SETTINGS_EXAMPLE.api_key_expiring.channel_id, description: 'A channel of this environment' })
  @IsUUID()
  channel_id!: string;

  @RecipientsOverride(['security@example.com'])
  to?: string[];
}

export class PutNoticeSettingsRequestDto {
  @ApiPropertyOptional({
    type: NoticeTargetDto,
    nullable: true,
    example: NOTICE_SETTINGS_EXAMPLE.api_key_expiring,
    description:
      'Where `api_key_expiring` notices go (an API key of this environment expires within the notice window); null or left out turns them off. The settings are replaced as a whole.',
  })
  @IsOptional()
  @IsNestedObject(() => NoticeTargetDto)
  api_key_expiring?: NoticeTargetDto | null;
}

export class NoticeSettingsResponseDto {
  @ApiProperty({
    type: NoticeTargetDto,
    nullable: true,
    example: NOTICE_SETTINGS_EXAMPLE.api_key_expiring,
    description: 'Where `api_key_expiring` notices go; null: not sent',
  })
  api_key_expiring!: NoticeTargetDto | null;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    example: NOTICE_SETTINGS_EXAMPLE.updated_at,
    description: 'Last change; null while never set',
  })
  updated_at!: string | null;
}
