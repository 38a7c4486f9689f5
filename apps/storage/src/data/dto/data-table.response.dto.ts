import { ApiProperty } from '@nestjs/swagger';
import { COLUMN_TYPES } from '../data-table.record.js';

export class ColumnResponseDto {
  @ApiProperty({ example: 'amount' })
  name!: string;

  @ApiProperty({ enum: COLUMN_TYPES, example: 'number' })
  type!: string;

  @ApiProperty({ example: true })
  nullable!: boolean;

  @ApiProperty({ example: false })
  unique!: boolean;
}

export class DataTableResponseDto {
  @ApiProperty({ example: 'orders' })
  name!: string;

  @ApiProperty({ type: [ColumnResponseDto] })
  columns!: ColumnResponseDto[];

  @ApiProperty({ type: 'array', items: { type: 'array', items: { type: 'string' } }, example: [['status', 'paid_at']] })
  indexes!: string[][];

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  created_at!: string;

  @ApiProperty({ format: 'date-time', example: '2026-11-22T10:00:00.000Z' })
  updated_at!: string;
}

export const DATA_TABLE_EXAMPLE = {
  name: 'orders',
  columns: [
    { name: 'customer', type: 'text', nullable: false, unique: false },
    { name: 'amount', type: 'number', nullable: true, unique: false },
    { name: 'status', type: 'text', nullable: true, unique: false },
    { name: 'paid_at', type: 'timestamp', nullable: true, unique: false },
    { name: 'reference', type: 'text', nullable: true, unique: true },
  ],
  indexes: [['status', 'paid_at']],
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};

export const ROW_EXAMPLE = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  customer: 'Globex',
  amount: 129.5,
  status: 'paid',
  paid_at: '2026-11-22T09:30:00.000Z',
  reference: 'INV-1001',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
};
