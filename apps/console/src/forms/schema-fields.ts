/**
 * The part of JSON Schema a generated form understands: an object whose properties are strings,
 * numbers, integers, booleans or enums, some of them required. Anything else is left to a JSON field.
 */
export interface FieldSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

export interface ObjectSchema {
  type?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
}

export type FieldKind = 'string' | 'text' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface Field {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
  schema: FieldSchema;
}

function typeOf(schema: FieldSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type;
}

function kindOf(schema: FieldSchema): FieldKind {
  if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string' || typeof v === 'number')) return 'enum';
  switch (typeOf(schema)) {
    case 'string':
      return (schema.maxLength ?? 0) > 200 || schema.format === 'textarea' ? 'text' : 'string';
    case 'number':
      return 'number';
    case 'integer':
      return 'integer';
    case 'boolean':
      return 'boolean';
    default:
      return 'json';
  }
}

/** The fields of an object schema, in the order of its properties. */
export function fieldsOf(schema: ObjectSchema | null | undefined): Field[] {
  const required = new Set(schema?.required ?? []);
  return Object.entries(schema?.properties ?? {}).map(([name, property]) => ({
    name,
    label: property.title ?? name,
    kind: kindOf(property),
    required: required.has(name),
    description: property.description,
    options: Array.isArray(property.enum) ? property.enum.map(String) : undefined,
    schema: property,
  }));
}

/** The values a new form starts with: each property's default, false for an unset boolean. */
export function initialValues(schema: ObjectSchema | null | undefined, given: Record<string, unknown> = {}): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fieldsOf(schema)) {
    const value = given[field.name] ?? field.schema.default;
    if (value !== undefined) values[field.name] = value;
    else if (field.kind === 'boolean') values[field.name] = false;
  }
  return values;
}

/** What an input's text means for a field: a number for number fields, the enum's own value, undefined when empty. */
export function parseInput(field: Field, text: string): unknown {
  if (text === '') return undefined;
  if (field.kind === 'number' || field.kind === 'integer') return Number(text);
  if (field.kind === 'enum') return field.schema.enum?.find((v) => String(v) === text) ?? text;
  if (field.kind === 'json') {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** Problems by field name: a missing required value, a number that is not one, out of range or length. */
export function problemsOf(schema: ObjectSchema | null | undefined, values: Record<string, unknown>): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of fieldsOf(schema)) {
    const value = values[field.name];
    const s = field.schema;
    if (value === undefined || value === '') {
      if (field.required) problems[field.name] = 'required';
      continue;
    }
    if (field.kind === 'number' || field.kind === 'integer') {
      if (typeof value !== 'number' || Number.isNaN(value)) problems[field.name] = 'must be a number';
      else if (field.kind === 'integer' && !Number.isInteger(value)) problems[field.name] = 'must be a whole number';
      else if (s.minimum !== undefined && value < s.minimum) problems[field.name] = `must be at least ${s.minimum}`;
      else if (s.maximum !== undefined && value > s.maximum) problems[field.name] = `must be at most ${s.maximum}`;
    }
    if (typeof value === 'string') {
      if (s.minLength !== undefined && value.length < s.minLength) problems[field.name] = `must be at least ${s.minLength} characters`;
      else if (s.maxLength !== undefined && value.length > s.maxLength) problems[field.name] = `must be at most ${s.maxLength} characters`;
    }
  }
  return problems;
}
