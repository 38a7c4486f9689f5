import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiOkResponse, getSchemaPath } from '@nestjs/swagger';

/** `200 { data: Item[], next_cursor }`: the answer of every list route, typed by its item class. */
export function ApiPageResponse(item: Type<unknown>, options: { description?: string; example?: unknown } = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(item),
    ApiOkResponse({
      description: options.description ?? "One page, in the route's order; `next_cursor` is null on the last page",
      schema: {
        type: 'object',
        required: ['data', 'next_cursor'],
        properties: {
          data: { type: 'array', items: { $ref: getSchemaPath(item) } },
          next_cursor: { type: 'string', nullable: true, description: 'Pass as `cursor` for the next page; null on the last page', example: null },
        },
        ...(options.example !== undefined ? { example: options.example } : {}),
      },
    }),
  );
}
