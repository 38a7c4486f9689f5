import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMinSize, IsArray, IsBoolean, IsIn, IsOptional, IsString, Matches, ValidateNested } from 'class-validator';
import { MaxItems } from '@platform/service';
import { COLUMN_NAME, COLUMN_TYPES, TABLE_NAME, type ColumnType } from '../data-table.record.js';

export const MAX_COLUMNS = 100;
export const MAX_INDEXES = 16;
export const MAX_INDEX_COLUMNS = 8;

export class ColumnDefinitionDto {
  @ApiProperty({ example: 'amount', pattern: COLUMN_NAME.source })
  @IsString()
  @Matches(COLUMN_NAME, { message: 'must match [a-z_][a-z0-9_]{0,62}' })
  name!: string;

  @ApiProperty({
    enum: COLUMN_TYPES,
    example: 'number',
    description: 'number is a 64-bit float (a JSON number); timestamp is ISO 8601 with a time zone (UTC when none is given); json is any JSON value.',
  })
  @IsIn(COLUMN_TYPES)
  type!: ColumnType;

  @ApiPropertyOptional({ default: true })
  @IsOptional()
  @IsBoolean()
  nullable?: boolean;

  @ApiPropertyOptional({ default: false, description: 'No two rows of the environment share a value (409 otherwise).' })
  @IsOptional()
  @IsBoolean()
  unique?: boolean;
}

export class CreateDataTableRequestDto {
  @ApiProperty({
    example: 'orders',
    pattern: TABLE_NAME.source,
    description: 'Unique in the environment; not an SQL keyword nor workflows, executions, tasks.',
  })
  @IsString()
  @Matches(TABLE_NAME, { message: 'must match [a-z_][a-z0-9_]{0,62}' })
  name!: string;

  @ApiProperty({
    type: [ColumnDefinitionDto],
    example: [
      { name: 'customer', type: 'text', nullable: false },
      { name: 'amount', type: 'number' },
      { name: 'status', type: 'text' },
      { name: 'paid_at', type: 'timestamp' },
      { name: 'reference', type: 'text', unique: true },
    ],
  })
  @IsArray()
  @ArrayMinSize(1)
  @MaxItems(MAX_COLUMNS)
  @ValidateNested({ each: true })
  @Type(() => ColumnDefinitionDto)
  columns!: ColumnDefinitionDto[];

  @ApiPropertyOptional({
    example: [['status', 'paid_at']],
    description: `Up to ${MAX_INDEXES} indexes of 1 to ${MAX_INDEX_COLUMNS} columns (own columns, id, created_at, updated_at).`,
    type: 'array',
    items: { type: 'array', items: { type: 'string' } },
  })
  @IsOptional()
  @IsArray()
  @MaxItems(MAX_INDEXES)
  @IsArray({ each: true, message: 'each index must be an array of column names' })
  indexes?: string[][];
}
