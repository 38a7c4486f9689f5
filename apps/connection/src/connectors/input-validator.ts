import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { ValidationFailedError, type FieldError } from '@platform/common';

// ajv-formats is CommonJS: under ESM its function is the default export's default.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

const MAX_CACHED = 1000;

/**
 * Checks an operation's input against its JSON Schema (every error, standard formats), filling
 * the schema's defaults. Compiled schemas are kept by their text: the same operation runs often.
 */
export class InputValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  /** Answers the input with defaults applied, or throws a 400 naming each field (`input.channel`). */
  check(schema: Record<string, unknown>, input: Record<string, unknown>, prefix = 'input'): Record<string, unknown> {
    const copy = structuredClone(input);
    const validate = this.compiled(schema);
    if (validate(copy)) return copy;
    throw new ValidationFailedError((validate.errors ?? []).map((e) => fieldError(e, prefix)));
  }

  private compiled(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, validate);
    }
    return validate;
  }
}

function fieldError(e: ErrorObject, prefix: string): FieldError {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') segments.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') segments.push(String((e.params as { additionalProperty: string }).additionalProperty));
  const field = segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : `${path}.${s}`), prefix);
  const message =
    e.keyword === 'required' ? 'is required' : e.keyword === 'additionalProperties' ? 'is not an input of this operation' : (e.message ?? 'is invalid');
  return { field, message };
}
