import type { FieldError } from '@platform/common';

/** One input of a form, read from the published workflow's JSON Schema (type object). */
export interface FormField {
  name: string;
  label: string;
  description: string | null;
  kind: 'text' | 'email' | 'number' | 'integer' | 'checkbox' | 'select' | 'json';
  required: boolean;
  options: string[];
}

interface PropertySchema {
  type?: string;
  title?: string;
  description?: string;
  format?: string;
  enum?: unknown[];
}

export function formFields(schema: Record<string, unknown>): FormField[] {
  const properties = (schema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(properties).map(([name, p]) => ({
    name,
    label: p.title ?? name,
    description: p.description ?? null,
    kind: Array.isArray(p.enum)
      ? 'select'
      : p.type === 'boolean'
        ? 'checkbox'
        : p.type === 'integer'
          ? 'integer'
          : p.type === 'number'
            ? 'number'
            : p.type === 'object' || p.type === 'array'
              ? 'json'
              : p.format === 'email'
                ? 'email'
                : 'text',
    required: required.has(name),
    options: Array.isArray(p.enum) ? p.enum.map(String) : [],
  }));
}

/**
 * The run input from the submitted values (all strings, as an HTML form sends them), typed as
 * the schema says. The run service checks the input against the workflow's own schema again.
 */
export function readSubmission(fields: FormField[], values: Record<string, unknown>): { input: Record<string, unknown>; errors: FieldError[] } {
  const input: Record<string, unknown> = {};
  const errors: FieldError[] = [];
  for (const f of fields) {
    const raw = values[f.name];
    if (f.kind === 'checkbox') {
      input[f.name] = raw === true || raw === 'on' || raw === 'true';
      continue;
    }
    // A JSON submission may send numbers, booleans or objects; an HTML form sends strings.
    const text = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : JSON.stringify(raw);
    if (text === '') {
      if (f.required) errors.push({ field: f.name, message: 'is required' });
      continue;
    }
    if (f.kind === 'number' || f.kind === 'integer') {
      const n = Number(text);
      if (!Number.isFinite(n) || (f.kind === 'integer' && !Number.isInteger(n)))
        errors.push({ field: f.name, message: `must be ${f.kind === 'integer' ? 'a whole number' : 'a number'}` });
      else input[f.name] = n;
    } else if (f.kind === 'select') {
      if (f.options.includes(text)) input[f.name] = text;
      else errors.push({ field: f.name, message: 'must be one of the choices' });
    } else if (f.kind === 'json') {
      try {
        input[f.name] = JSON.parse(text);
      } catch {
        errors.push({ field: f.name, message: 'must be JSON' });
      }
    } else {
      input[f.name] = text;
    }
  }
  return { input, errors };
}
