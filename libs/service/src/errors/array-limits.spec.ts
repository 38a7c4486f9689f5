import { describe, expect, it } from '@jest/globals';
import { Body, Controller, Module, Post } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { AppError } from '@platform/common';
import { findOversizedArray, findUnboundedArrayFields, MAX_ARRAY_ITEMS, MaxItems } from './array-limits.js';
import { createValidationPipe } from './validation.pipe.js';

class Line {
  @ApiProperty()
  @IsString()
  sku!: string;

  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsArray()
  @MaxItems(5)
  @IsString({ each: true })
  tags?: string[];
}

class OrderDto {
  @ApiProperty({ type: [Line] })
  @IsArray()
  @MaxItems(3)
  @ValidateNested({ each: true })
  @Type(() => Line)
  lines!: Line[];

  /** No bound of its own: the platform's applies. */
  @ApiPropertyOptional({ type: [String] })
  @IsOptional()
  @IsString({ each: true })
  notes?: string[];

  /** Free-form JSON: class-validator does not walk it, so it keeps any length. */
  @ApiPropertyOptional()
  @IsOptional()
  @IsObject()
  input?: Record<string, unknown>;
}

const items = (n: number, item: unknown = 'x') => Array.from({ length: n }, () => item);
const line = (extra: Record<string, unknown> = {}) => ({ sku: 'a', ...extra });

describe('findOversizedArray', () => {
  it('finds a field over its MaxItems', () => {
    expect(findOversizedArray({ lines: items(4, line()) }, OrderDto)).toEqual({ field: 'lines', length: 4, limit: 3 });
    expect(findOversizedArray({ lines: items(3, line()) }, OrderDto)).toBeNull();
  });

  it('holds a field without a bound of its own to MAX_ARRAY_ITEMS', () => {
    expect(findOversizedArray({ lines: [], notes: items(MAX_ARRAY_ITEMS + 1) }, OrderDto)).toEqual({
      field: 'notes',
      length: MAX_ARRAY_ITEMS + 1,
      limit: MAX_ARRAY_ITEMS,
    });
    expect(findOversizedArray({ lines: [], notes: items(MAX_ARRAY_ITEMS) }, OrderDto)).toBeNull();
  });

  it('finds an array over MAX_ARRAY_ITEMS inside a nested field, by its path', () => {
    expect(findOversizedArray({ lines: [line(), line({ tags: items(20_000) })] }, OrderDto)).toEqual({
      field: 'lines[1].tags',
      length: 20_000,
      limit: MAX_ARRAY_ITEMS,
    });
  });

  it('leaves free-form JSON and anything that is not an object alone', () => {
    expect(findOversizedArray({ lines: [], input: { rows: items(100_000, { n: 1 }) } }, OrderDto)).toBeNull();
    expect(findOversizedArray(items(100_000), OrderDto)).toBeNull();
    expect(findOversizedArray('text', String)).toBeNull();
  });
});

describe('the validation pipe and long arrays', () => {
  const refusal = async (value: unknown, type: 'body' | 'query') => {
    try {
      await createValidationPipe().transform(value, { type, metatype: OrderDto });
    } catch (error) {
      if (error instanceof AppError) return error;
      throw error;
    }
    throw new Error('expected a refusal');
  };

  it('refuses a 100,000-item body with 400 too_many_items, before any item is validated', async () => {
    const error = await refusal({ lines: items(100_000, { sku: 1, unknown: true }) }, 'body');
    expect(error.code).toBe('too_many_items');
    expect(error.status).toBe(400);
    expect(error.message).toBe("Too many items in body field 'lines': 100000, at most 3");
    expect(error.details).toEqual([{ field: 'lines', message: 'must contain no more than 3 items' }]);
  });

  it('names a query parameter as such', async () => {
    expect((await refusal({ lines: [], notes: items(MAX_ARRAY_ITEMS + 1) }, 'query')).message).toMatch(/^Too many items in query parameter 'notes'/);
  });

  it('validates bodies within the bounds as before', async () => {
    const error = await refusal({ lines: [line({ tags: items(6) })] }, 'body');
    expect(error.code).toBe('validation_failed');
    expect(error.details).toEqual([{ field: 'lines[0].tags', message: 'must contain no more than 5 elements' }]);
    const order = (await createValidationPipe().transform(
      { lines: [line()], input: { rows: items(20_000, 1) } },
      { type: 'body', metatype: OrderDto },
    )) as OrderDto;
    expect(order.lines[0]).toBeInstanceOf(Line);
  });
});

describe('MaxItems', () => {
  it('documents the bound as the OpenAPI maxItems, keeping the rest of the property', () => {
    expect(Reflect.getMetadata('swagger/apiModelProperties', OrderDto.prototype, 'lines')).toMatchObject({ type: Line, isArray: true, maxItems: 3 });
    expect(Reflect.getMetadata('swagger/apiModelProperties', Line.prototype, 'tags')).toMatchObject({ required: false, maxItems: 5 });
  });
});

describe('findUnboundedArrayFields', () => {
  @Controller('orders')
  class OrdersController {
    @Post()
    create(@Body() body: OrderDto) {
      return body;
    }
  }

  @Module({ controllers: [OrdersController] })
  class OrdersModule {}

  it('names the array fields of request DTOs, nested ones included, that state no MaxItems', () => {
    expect(findUnboundedArrayFields(OrdersModule)).toEqual(['OrderDto.notes']);
  });
});
