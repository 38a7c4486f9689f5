import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { ValidationFailedError } from './app.errors.js';
import type { FieldError } from './error-body.js';

function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Flattens class-validator's tree into `scopes[0]`-style field paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const key = /^\d+$/.test(error.property) ? `[${error.property}]` : error.property;
    const field = parent ? (key.startsWith('[') ? `${parent}${key}` : `${parent}.${key}`) : key;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      out.push({
        field,
        message: rule === 'whitelistValidation' ? 'is not allowed' : stripProperty(message, error.property),
      });
    }
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
}

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
