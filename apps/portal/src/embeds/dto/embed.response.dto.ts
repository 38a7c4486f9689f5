import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { EMBED_KINDS, type EmbedKind } from '../embeds.repository.js';

export interface EmbedResponse {
  id: string;
  kind: EmbedKind;
  target_id: string;
  customer_id: string;
  allowed_origins: string[];
  rate_limit_per_minute: number;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

export interface CreatedEmbedResponse extends EmbedResponse {
  url: string;
  token: string;
  html: string;
}

const URL_EXAMPLE = 'https://api.example.com/portal/public/forms/0194f1c2-0000-7000-8000-00000000a001?token=eyJhbGciOiJFZERTQSJ9…';

export const EMBED_EXAMPLE: CreatedEmbedResponse = {
  id: '0194f1c2-0000-7000-8000-00000000b001',
  kind: 'form',
  target_id: '0194f1c2-0000-7000-8000-00000000a001',
  customer_id: '0194f1c2-0000-7000-8000-0000000000c1',
  allowed_origins: ['https://app.example.com'],
  rate_limit_per_minute: 30,
  expires_at: '2026-11-24T11:00:00.000Z',
  revoked_at: null,
  created_at: '2026-11-24T10:00:00.000Z',
  url: URL_EXAMPLE,
  token: 'eyJhbGciOiJFZERTQSJ9…',
  html: `<iframe src="${URL_EXAMPLE}" title="Request a quote" width="100%" height="640" style="border:0" loading="lazy"></iframe>`,
};

export class EmbedResponseDto {
  @ApiProperty({ format: 'uuid', description: "The token's id (its jti)" })
  id!: string;

  @ApiProperty({ enum: EMBED_KINDS })
  kind!: EmbedKind;

  @ApiProperty({ format: 'uuid' })
  target_id!: string;

  @ApiProperty({ format: 'uuid' })
  customer_id!: string;

  @ApiProperty({ type: [String] })
  allowed_origins!: string[];

  @ApiProperty({ type: 'integer' })
  rate_limit_per_minute!: number;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  revoked_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class CreatedEmbedResponseDto extends EmbedResponseDto {
  @ApiProperty({ description: 'The view: open it as a signed link, or frame it from an allowed origin' })
  url!: string;

  @ApiPropertyOptional({ description: 'The signed token (JWT, EdDSA); returned only here' })
  token!: string;

  @ApiPropertyOptional({ description: 'An iframe snippet to paste into a page of an allowed origin' })
  html!: string;
}
