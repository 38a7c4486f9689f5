import { ValidationPipe } from '@nestjs/common';
import { ValidationFailedError, flattenValidationErrors } from '@platform/common';

/** Unknown fields are rejected, types converted, and failures name every field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    transform: true,
    stopAtFirstError: false,
    exceptionFactory: (errors) => new ValidationFailedError(flattenValidationErrors(errors)),
  });
}
