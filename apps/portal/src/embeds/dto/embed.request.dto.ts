import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn, IsInt, IsOptional, IsUUID, Matches, Max, Min } from 'class-validator';
import { PageQueryDto, MaxItems } from '@platform/service';
import { EMBED_KINDS, type EmbedKind } from '../embeds.repository.js';

/** An origin as browsers send it: scheme, host and an optional port, nothing else. */
export const ORIGIN = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?)(:\d{1,5})?$/i;

export class CreateEmbedRequestDto {
  @ApiProperty({
    enum: EMBED_KINDS,
    example: 'form',
    description: "form: a published workflow's form; runs: the customer's runs of a published workflow; dashboard: a dashboard with the customer's numbers",
  })
  @IsIn(EMBED_KINDS)
  kind!: EmbedKind;

  @ApiProperty({ format: 'uuid', description: 'The published workflow (form, runs) or the dashboard (dashboard)' })
  @IsUUID()
  target_id!: string;

  @ApiProperty({ format: 'uuid', description: 'The customer the token is bound to: the view shows its data and runs start in its scope' })
  @IsUUID()
  customer_id!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 60, maximum: 2_592_000, default: 3600, description: 'Lifetime of the token (at most 30 days)' })
  @IsOptional()
  @IsInt()
  @Min(60)
  @Max(2_592_000)
  expires_in_seconds?: number;

  @ApiProperty({
    type: [String],
    example: ['https://app.example.com'],
    description: 'Origins whose pages may frame the view (Content-Security-Policy frame-ancestors); empty: no page may frame it (a plain signed link)',
  })
  @IsArray()
  @MaxItems(20)
  @Matches(ORIGIN, { each: true, message: 'each value must be an origin such as https://app.example.com' })
  allowed_origins!: string[];

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 10_000, default: 30, description: 'Form submissions this token accepts per minute' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  rate_limit_per_minute?: number;
}

export class ListEmbedsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: EMBED_KINDS, description: 'Only tokens of this kind' })
  @IsOptional()
  @IsIn(EMBED_KINDS)
  kind?: EmbedKind;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only tokens for this published workflow or dashboard' })
  @IsOptional()
  @IsUUID()
  target_id?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only tokens bound to this customer' })
  @IsOptional()
  @IsUUID()
  customer_id?: string;
}
