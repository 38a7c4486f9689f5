import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import type { ValidationError, ValidatorOptions } from 'class-validator';
import { AppError, ValidationFailedError, flattenValidationErrors } from '@platform/common';
import { findOversizedArray, tooManyItemsError } from './array-limits.js';
import { findNullFields, mergeValidationErrors } from './null-fields.js';

export const BODY_NOT_OBJECT_MESSAGE = 'The body must be a JSON object';

/** 400 for a JSON body that is an array, null or a scalar where the route takes an object. */
export const bodyNotObject = () => new AppError('body_not_object', 400, BODY_NOT_OBJECT_MESSAGE);

const isJsonObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A body DTO describes an object, so any other JSON value is refused before class-transformer and
 * class-validator see it: an array became an array of DTOs whose one error named no field (the
 * flattening crashed: a 500), and null was quietly taken as `{}`. A missing body (undefined) is
 * still taken as `{}`: routes whose fields are all optional are called without one.
 */
class ObjectBodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && value !== undefined && !isJsonObject(value) && metadata.metatype && this.toValidate(metadata)) throw bodyNotObject();
    return super.transform(value, metadata);
  }
}

/**
 * Refuses an array over its bound (400 `too_many_items`) before class-transformer and
 * class-validator walk its items: validating a 100,000-item array of objects took seconds of CPU
 * even where the answer was a 400.
 */
class RequestValidationPipe extends ObjectBodyValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.metatype && (metadata.type === 'body' || metadata.type === 'query')) {
      const oversized = findOversizedArray(value, metadata.metatype);
      if (oversized) throw tooManyItemsError(oversized, metadata.type);
    }
    return super.transform(value, metadata);
  }
}

/**
 * `null` is a value only where the field's OpenAPI schema says `nullable`: class-validator's
 * `@IsOptional()` lets null through as if the field were missing, so every optional field would
 * otherwise take it (`PATCH /triggers/{id} {"workflow_id":null}` answered 200). Reported with the
 * other field errors (400 `validation_failed`, `<field> must not be null`).
 */
class NonNullValidationPipe extends RequestValidationPipe {
  protected override async validate(object: object, options?: ValidatorOptions): Promise<ValidationError[]> {
    const errors = await super.validate(object, options);
    return mergeValidationErrors(errors, findNullFields(object, errors));
  }
}

/** Unknown fields and undocumented nulls are rejected, types converted, arrays bounded, and failures name every field. */
export function createValidationPipe(): ValidationPipe {
  return new NonNullValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}
