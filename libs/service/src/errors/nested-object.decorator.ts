import { applyDecorators } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';

/**
 * A field holding one object of a DTO class. `@ValidateNested()` alone takes an array as well (it
 * validates each element, so `[]` passes without an error and reaches the service as an array:
 * a 500, or `event.filter` read as Array.prototype.filter), and says nothing of a required field
 * left out. The value must be an object first: "must be an object" names the field in both cases.
 * Combine with `@IsOptional()` for an optional field.
 */
export function IsNestedObject(type: () => new () => object): PropertyDecorator {
  return applyDecorators(IsObject(), ValidateNested(), Type(type));
}
