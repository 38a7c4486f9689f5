import { describe, expect, it } from '@jest/globals';
import { Type, plainToInstance } from 'class-transformer';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsObject, IsOptional, IsString, ValidateNested, ValidationError, validateSync } from 'class-validator';
import { AppError, ValidationFailedError, flattenValidationErrors } from '@platform/common';
import { BODY_NOT_OBJECT_MESSAGE, createValidationPipe } from './validation.pipe.js';
import { IsNestedObject } from './nested-object.decorator.js';

class Counter {
  @IsInt()
  count!: number;
}

class Item {
  @IsString()
  name!: string;
}

class CreateThingDto {
  @IsString()
  name!: string;

  @ValidateNested()
  @Type(() => Counter)
  nested!: Counter;

  @ValidateNested({ each: true })
  @Type(() => Item)
  items!: Item[];

  @IsString({ each: true })
  tags!: string[];
}

const valid = () => ({ name: 'thing', nested: { count: 1 }, items: [{ name: 'a' }, { name: 'b' }], tags: ['x', 'y'] });

function problems(input: Record<string, unknown>) {
  const errors = validateSync(plainToInstance(CreateThingDto, input), { whitelist: true, forbidNonWhitelisted: true });
  return flattenValidationErrors(errors);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

describe('flattenValidationErrors', () => {
  it('reports nothing for a valid object', () => {
    expect(problems(valid())).toEqual([]);
  });

  it('names a top-level field and drops the property name from the message', () => {
    expect(problems({ ...valid(), name: 42 })).toEqual([{ field: 'name', message: 'must be a string' }]);
  });

  it('names a nested field with a dot path', () => {
    expect(problems({ ...valid(), nested: { count: 'many' } })).toEqual([{ field: 'nested.count', message: 'must be an integer number' }]);
  });

  it('names an array element with brackets', () => {
    expect(problems({ ...valid(), items: [{ name: 'a' }, { name: 7 }] })).toEqual([{ field: 'items[1].name', message: 'must be a string' }]);
  });

  it('reports an invalid element of a string array on the array field', () => {
    expect(problems({ ...valid(), tags: ['x', 3] })).toEqual([{ field: 'tags', message: 'each value in tags must be a string' }]);
  });

  it("says an unknown property 'is not allowed'", () => {
    expect(problems({ ...valid(), extra: 1 })).toEqual([{ field: 'extra', message: 'is not allowed' }]);
  });

  it('names an unknown property inside a nested object by its path', () => {
    expect(problems({ ...valid(), nested: { count: 1, sneaky: true } })).toEqual([{ field: 'nested.sneaky', message: 'is not allowed' }]);
  });

  it('reports every failing field at once', () => {
    const fields = problems({ name: 1, nested: { count: 'x' }, items: [{ name: 2 }], tags: ['ok'], extra: true }).map((p) => p.field);
    expect(fields.sort()).toEqual(['extra', 'items[0].name', 'name', 'nested.count']);
  });
});

describe('flattenValidationErrors on a long array', () => {
  it('flattens 200,000 item errors without overflowing the stack', () => {
    const children = Array.from({ length: 200_000 }, (_, i) =>
      Object.assign(new ValidationError(), {
        property: String(i),
        children: [Object.assign(new ValidationError(), { property: 'name', constraints: { isString: 'name must be a string' } })],
      }),
    );
    const details = flattenValidationErrors([Object.assign(new ValidationError(), { property: 'items', children })]);
    expect(details).toHaveLength(200_000);
    expect(details[199_999]).toEqual({ field: 'items[199999].name', message: 'must be a string' });
  });
});

describe('createValidationPipe', () => {
  const body = { type: 'body' as const, metatype: CreateThingDto };

  it('rejects an invalid body with a ValidationFailedError naming the field', async () => {
    const error = await rejectionOf(createValidationPipe().transform({ ...valid(), nested: { count: 'many' } }, body));
    expect(error).toBeInstanceOf(ValidationFailedError);
    const failed = error as ValidationFailedError;
    expect(failed.getStatus()).toBe(400);
    expect(failed.code).toBe('validation_failed');
    expect(failed.details).toEqual([{ field: 'nested.count', message: 'must be an integer number' }]);
    expect(failed.message).toBe('Validation failed: nested.count must be an integer number');
  });

  it('rejects an unknown field instead of stripping it', async () => {
    const error = await rejectionOf(createValidationPipe().transform({ ...valid(), extra: 'x' }, body));
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).details).toEqual([{ field: 'extra', message: 'is not allowed' }]);
  });

  it.each([
    ['an array', []],
    ['an array of objects', [valid()]],
    ['null', null],
    ['a number', 5],
    ['a string', 'thing'],
    ['a boolean', true],
  ])('refuses %s as a body with 400 "%s"', async (_what, value) => {
    const error = await rejectionOf(createValidationPipe().transform(value, body));
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    expect((error as AppError).message).toBe(BODY_NOT_OBJECT_MESSAGE);
  });

  it('leaves a body the route takes as it is (unknown) to the route', async () => {
    expect(await createValidationPipe().transform([1], { type: 'body', metatype: Object })).toEqual([1]);
  });

  it('turns a valid body into instances of the DTO classes', async () => {
    const result = (await createValidationPipe().transform(valid(), body)) as unknown;
    expect(result).toBeInstanceOf(CreateThingDto);
    expect((result as CreateThingDto).nested).toBeInstanceOf(Counter);
    expect((result as CreateThingDto).items[1]).toBeInstanceOf(Item);
    expect(result).toEqual(valid());
  });
});

class Hook {
  @IsString()
  name!: string;
}

class HasNested {
  @IsNestedObject(() => Hook)
  hook!: Hook;
}

describe('IsNestedObject', () => {
  const body = { type: 'body' as const, metatype: HasNested };
  const fieldsOf = async (value: Record<string, unknown>) => {
    const error = await rejectionOf(createValidationPipe().transform(value, body));
    expect(error).toBeInstanceOf(ValidationFailedError);
    return (error as ValidationFailedError).details;
  };

  it('refuses an array, a scalar or a missing value, naming the field', async () => {
    for (const hook of [[], [{ name: 'a' }], 'hmac', 7, null, undefined]) {
      expect(await fieldsOf(hook === undefined ? {} : { hook })).toContainEqual({ field: 'hook', message: 'must be an object' });
    }
  });

  it('validates the object against its class', async () => {
    expect(await fieldsOf({ hook: { name: 1 } })).toEqual([{ field: 'hook.name', message: 'must be a string' }]);
    const ok = (await createValidationPipe().transform({ hook: { name: 'a' } }, body)) as HasNested;
    expect(ok.hook).toBeInstanceOf(Hook);
  });
});

class Note {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  text?: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  comment?: string | null;
}

class PatchThingDto {
  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  name?: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'null clears it' })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({ anyOf: [{ type: 'object', additionalProperties: true, nullable: true }, { type: 'string' }] })
  @IsOptional()
  input?: Record<string, unknown> | string | null;

  @ApiPropertyOptional({ type: Note })
  @IsOptional()
  @IsNestedObject(() => Note)
  note?: Note;

  @ApiPropertyOptional({ type: Note, isArray: true })
  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Note)
  notes?: Note[];

  @ApiPropertyOptional({ type: 'object', additionalProperties: true })
  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;
}

describe('null in a request body', () => {
  const body = { type: 'body' as const, metatype: PatchThingDto };
  const detailsOf = async (value: unknown) => ((await rejectionOf(createValidationPipe().transform(value, body))) as ValidationFailedError).details;

  it('is 400 validation_failed on an optional field whose schema is not nullable, naming the field', async () => {
    const error = await rejectionOf(createValidationPipe().transform({ name: null }, body));
    expect(error).toBeInstanceOf(ValidationFailedError);
    expect((error as ValidationFailedError).details).toEqual([{ field: 'name', message: 'must not be null' }]);
  });

  it('is named at its path inside nested objects and arrays of objects, with the other errors', async () => {
    const details = await detailsOf({ name: 5, note: { text: null }, notes: [{ text: 'a' }, { text: null, comment: 7 }] });
    expect([...(details ?? [])].sort((a, b) => a.field.localeCompare(b.field))).toEqual([
      { field: 'name', message: 'must be a string' },
      { field: 'note.text', message: 'must not be null' },
      { field: 'notes[1].comment', message: 'must be a string' },
      { field: 'notes[1].text', message: 'must not be null' },
    ]);
  });

  it('is accepted where the schema says nullable (the field itself or a branch of anyOf), and inside free-form JSON', async () => {
    const value = { description: null, input: null, note: { comment: null }, data: { anything: null } };
    const result = (await createValidationPipe().transform(value, body)) as PatchThingDto;
    expect(result).toEqual(value);
  });

  it('is not reported twice on a field that already has an error', async () => {
    expect(await detailsOf({ name: 'x', extra: null })).toEqual([{ field: 'extra', message: 'is not allowed' }]);
    expect(await problemsOfRequired({ name: null })).toEqual([{ field: 'name', message: 'must be a string' }]);
  });
});

class RequiredNameDto {
  @ApiProperty()
  @IsString()
  name!: string;
}

async function problemsOfRequired(value: unknown) {
  return ((await rejectionOf(createValidationPipe().transform(value, { type: 'body', metatype: RequiredNameDto }))) as ValidationFailedError).details;
}
