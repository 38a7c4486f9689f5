import type { ValidationError } from 'class-validator';
import type { FieldError } from './error-body.js';

function stripProperty(message: string, property: string): string {
  return message.startsWith(`${property} `) ? message.slice(property.length + 1) : message;
}

/** Flattens class-validator's tree into `scopes[0]`-style field paths. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  collect(errors, parent, out);
  return out;
}

// One array, filled in place: `out.push(...children)` passed every problem below as an argument,
// and an array of tens of thousands of bad items overflowed the call stack (a 500 for a 400).
function collect(errors: ValidationError[], parent: string, out: FieldError[]): void {
  for (const error of errors) {
    const key = /^\d+$/.test(error.property) ? `[${error.property}]` : error.property;
    const field = parent ? (key.startsWith('[') ? `${parent}${key}` : `${parent}.${key}`) : key;
    for (const [rule, message] of Object.entries(error.constraints ?? {})) {
      out.push({
        field,
        message: rule === 'whitelistValidation' ? 'is not allowed' : stripProperty(message, error.property),
      });
    }
    if (error.children?.length) collect(error.children, field, out);
  }
}
