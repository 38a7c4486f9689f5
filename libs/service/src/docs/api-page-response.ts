import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

type ItemSchema = Record<string, unknown>;

/**
 * `200 { data: Item[], next_cursor }`: the answer of every list route, typed by its item class (or,
 * for items described elsewhere, by an item schema).
 */
export function ApiPageResponse(item: Type<unknown> | ItemSchema, options: { description?: string; example?: unknown } = {}): MethodDecorator & ClassDecorator {
  const isClass = typeof item === 'function';
  const items = isClass ? { $ref: getSchemaPath(item) } : item;
  return applyDecorators(
    ...(isClass ? [ApiExtraModels(item)] : []),
    ApiOkResponse({
      description: options.description ?? "One page, in the route's order; `next_cursor` is null on the last page",
      schema: {
        type: 'object',
        required: ['data', 'next_cursor'],
        properties: {
          data: { type: 'array', items },
          next_cursor: { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page', example: null },
        },
        ...(options.example !== undefined ? { example: options.example } : {}),
      },
    }),
  );
}
