import { ApiProperty } from '@nestjs/swagger';

export class ResourceResponseDto {
  @ApiProperty({ format: 'uuid', example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' })
  id!: string;

  @ApiProperty({ example: 'orders-db' })
  name!: string;

  @ApiProperty({ example: 'postgres' })
  type!: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { host: 'db.internal', port: 5432, database: 'orders', password_secret: 'ORDERS_DB_PASSWORD' },
  })
  config!: Record<string, unknown>;

  @ApiProperty({ type: String, nullable: true, example: 'Orders database, read replica' })
  description!: string | null;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;
}
