import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FieldError } from '@platform/common';

// ajv-formats is CommonJS: under ESM its function is the default export's default.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/** Compiled schemas by their text: many tasks of one workflow step share one form. */
const MAX_CACHED = 500;

export type FormCheck = { ok: true } | { ok: false; details: FieldError[] } | { ok: false; invalidSchema: string };

/**
 * Checks a task's submitted data against its form's JSON Schema with ajv (all errors, standard
 * formats). Unknown keywords are allowed: forms carry UI hints (`ui:widget`, `x-order`, …)
 * beside the schema. Each error names the field: `data.amount`, `data.address.city`.
 */
export class FormValidator {
  private readonly ajv = new Ajv({ allErrors: true, strict: false });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    addFormats(this.ajv);
  }

  check(form: Record<string, unknown>, data: unknown): FormCheck {
    let validate: ValidateFunction;
    try {
      validate = this.compiled(form);
    } catch (error) {
      return { ok: false, invalidSchema: (error as Error).message };
    }
    if (validate(data)) return { ok: true };
    return { ok: false, details: (validate.errors ?? []).map(toFieldError) };
  }

  private compiled(form: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(form);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(form);
      if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
      this.cache.set(key, validate);
    }
    return validate;
  }
}

/** `/address/city` → `data.address.city`; a missing required property is named itself. */
export function toFieldError(e: ErrorObject): FieldError {
  const segments = e.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (e.keyword === 'required') segments.push(String((e.params as { missingProperty: string }).missingProperty));
  if (e.keyword === 'additionalProperties') segments.push(String((e.params as { additionalProperty: string }).additionalProperty));
  const field = segments.reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : `${path}.${s}`), 'data');
  const message = e.keyword === 'required' ? 'is required' : e.keyword === 'additionalProperties' ? 'is not a field of the form' : (e.message ?? 'is invalid');
  return { field, message };
}
