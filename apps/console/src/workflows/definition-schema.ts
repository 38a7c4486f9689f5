import { Validator, type OutputUnit } from '@cfworker/json-schema';

type Schema = Record<string, unknown>;

/**
 * OpenAPI 3.0 writes "may be null" as `nullable: true`, which JSON Schema does not know: a
 * validator would refuse the `null` the API accepts. Rewritten the JSON Schema way, everywhere.
 */
export function fromOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(fromOpenApi);
  if (typeof schema !== 'object' || schema === null) return schema;
  const { nullable, ...rest } = schema as Schema;
  const out: Schema = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, k === 'example' || k === 'enum' ? v : fromOpenApi(v)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string' && !('enum' in out)) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/**
 * The JSON Schema of what the editor edits (the body of `POST /run/workflows`), taken from the
 * run service's OpenAPI document so the editor checks exactly what the API documents.
 */
export function definitionSchema(openApi: unknown, name = 'CreateWorkflowRequestDto'): Schema | null {
  const schemas = (openApi as { components?: { schemas?: Schema } } | null)?.components?.schemas;
  if (!schemas || !(name in schemas)) return null;
  return { $ref: `#/components/schemas/${name}`, components: { schemas: fromOpenApi(schemas) } };
}

const SUMMARIES = new Set(['$ref', 'properties', 'items', 'prefixItems', 'allOf']);

export interface SchemaProblem {
  /** JSON pointer into the definition, `''` for the whole of it. */
  pointer: string;
  message: string;
}

/**
 * Problems of a definition against the schema, most precise first: an error whose place holds a
 * deeper one (a `properties` or `$ref` summary) only repeats it and is left out.
 */
export function schemaProblems(schema: Schema, value: unknown): SchemaProblem[] {
  const result = new Validator(schema, '2020-12', false).validate(value);
  if (result.valid) return [];
  // "A subschema had errors", "Property x does not match schema": the reason is in another error.
  const errors = result.errors.filter((e: OutputUnit) => !SUMMARIES.has(e.keyword));
  const places = errors.map((e: OutputUnit) => e.instanceLocation.replace(/^#/, ''));
  const seen = new Set<string>();
  return errors
    .map((e: OutputUnit, i) => ({ pointer: places[i], message: e.error }))
    .filter((p) => !places.some((other) => other !== p.pointer && other.startsWith(`${p.pointer}/`)))
    .filter((p) => {
      const key = `${p.pointer} ${p.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/**
 * The input schema the run service publishes for a built-in step type: WorkflowStep's
 * `x-input-schema-by-type` refers to a component per type (`http.request` → HttpRequestStepInput).
 * Null for a type it does not describe (transform, set, a connector's), whose input stays JSON.
 */
export function stepInputSchema(schema: Schema | null, type: string): Schema | null {
  const schemas = (schema?.components as { schemas?: Record<string, Schema> } | undefined)?.schemas;
  const byType = schemas?.WorkflowStep?.['x-input-schema-by-type'] as Record<string, unknown> | undefined;
  const entry = byType && Object.hasOwn(byType, type) ? byType[type] : undefined;
  const ref = typeof entry === 'object' && entry !== null ? (entry as { $ref?: unknown }).$ref : undefined;
  if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) return null;
  const found = schemas?.[ref.slice('#/components/schemas/'.length)];
  return typeof found === 'object' && found !== null ? found : null;
}

/**
 * Any value of a step's input may be a `{% … %}` expression: a field that holds one is edited as
 * text, whatever type its literal values have, so the form shows the expression instead of losing it.
 */
export function withExpressions(schema: Schema, values: Record<string, unknown>): Schema {
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const isExpression = (v: unknown) => typeof v === 'string' && /^\{%[\s\S]*%\}$/.test(v);
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(([name, property]) => {
        if (!isExpression(values[name])) return [name, property];
        const { enum: _choices, minimum: _min, maximum: _max, ...rest } = property;
        return [name, { ...rest, type: 'string', format: 'textarea' }];
      }),
    ),
  };
}
