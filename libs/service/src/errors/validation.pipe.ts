import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { AppError, ValidationFailedError, flattenValidationErrors } from '@platform/common';
import { findOversizedArray, tooManyItemsError } from './array-limits.js';

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

/** Unknown fields are rejected, types converted, arrays bounded, and failures name every field. */
export function createValidationPipe(): ValidationPipe {
  return new RequestValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}
