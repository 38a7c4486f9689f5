import type { ValidationError } from 'class-validator';
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
