import { ApiProperty } from '@nestjs/swagger';

export class SecretResponseDto {
  @ApiProperty({ example: 'STRIPE_API_KEY' })
  name!: string;

  @ApiProperty({ example: 'Stripe key used by the billing workflows', nullable: true, type: String })
  description!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;

  @ApiProperty({ example: null, nullable: true, type: String, format: 'date-time', description: 'Last time a workflow run or connection read the value.' })
  last_read_at!: string | null;
}

export const SECRET_EXAMPLE = {
  name: 'STRIPE_API_KEY',
  description: 'Stripe key used by the billing workflows',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  last_read_at: null,
};
