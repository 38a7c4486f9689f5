import { ApiProperty } from '@nestjs/swagger';

export class CustomerResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-0000-7000-8000-0000000000c1', description: 'The X-Scope-Key value of this customer' })
  id!: string;

  @ApiProperty({ example: 'Globex Corporation' })
  name!: string;

  @ApiProperty({ type: String, nullable: true, example: 'crm-4711' })
  external_id!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, example: { plan: 'gold' } })
  metadata!: Record<string, unknown>;

  @ApiProperty({ enum: ['active', 'disabled'], example: 'active' })
  status!: 'active' | 'disabled';

  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  disabled_at!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;
}
