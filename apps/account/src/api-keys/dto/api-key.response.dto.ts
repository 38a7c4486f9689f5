import { ApiProperty } from '@nestjs/swagger';

/** A key record (API-CONTRACT): every field present, null when unset; never the key's value. */
export class ApiKeyResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  id!: string;

  @ApiProperty({ example: 'ci-deployer' })
  name!: string;

  @ApiProperty({ enum: ['tenant', 'customer'], example: 'tenant' })
  type!: 'tenant' | 'customer';

  @ApiProperty({ enum: ['live', 'test'], example: 'live', description: 'live keys see production data, test keys sandbox data' })
  mode!: 'live' | 'test';

  @ApiProperty({ format: 'uuid', example: '0194f1c2-0000-7000-8000-000000000001' })
  data_plane_id!: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The customer of a customer key' })
  customer_id!: string | null;

  @ApiProperty({ type: [String], example: ['automations:run', 'data:read'] })
  scopes!: string[];

  @ApiProperty({ example: 'sv_live_AbC1', description: "The key's first 12 characters, to recognise it" })
  prefix!: string;

  @ApiProperty({ enum: ['active', 'revoked', 'expired', 'rotated'], example: 'active' })
  status!: 'active' | 'revoked' | 'expired' | 'rotated';

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  expires_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  last_used_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  revoked_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  rotated_at!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: null, description: 'The key that replaced this one at rotation' })
  replaced_by!: string | null;
}

export class CreatedApiKeyResponseDto extends ApiKeyResponseDto {
  @ApiProperty({ example: 'sv_live_…', description: 'The key: shown only in this answer' })
  key!: string;
}
