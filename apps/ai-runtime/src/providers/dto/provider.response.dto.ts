import { ApiProperty } from '@nestjs/swagger';
import { ProviderModelDto } from './provider.request.dto.js';

export const PROVIDER_EXAMPLE = {
  id: '01937b6e-6c1a-7cc1-9f3e-5b1a2c3d4e5f',
  name: 'openai',
  kind: 'openai_compatible',
  base_url: 'https://api.openai.com/v1',
  api_key_header: 'authorization',
  has_api_key: true,
  models: [
    { id: 'gpt-4o-mini', kind: 'chat' },
    { id: 'text-embedding-3-small', kind: 'embedding' },
  ],
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};

export class ProviderResponseDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ example: 'openai' }) name!: string;
  @ApiProperty({ enum: ['openai_compatible'] }) kind!: string;
  @ApiProperty() base_url!: string;
  @ApiProperty({ enum: ['authorization', 'api-key'] }) api_key_header!: string;
  @ApiProperty({ description: 'Whether a key is stored (it is never returned)' }) has_api_key!: boolean;
  @ApiProperty({ type: [ProviderModelDto] }) models!: ProviderModelDto[];
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ format: 'date-time' }) updated_at!: string;
}
