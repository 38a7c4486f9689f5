import { CONNECTOR_DEFINITION_SCHEMA } from './definition.schema.js';

type Schema = Record<string, unknown>;

/**
 * The connector definition's JSON Schema written as an OpenAPI 3.0 schema, so PUT /catalog/connectors
 * documents the body it checks instead of a free-form object. OpenAPI 3.0 differs from JSON Schema
 * in three ways this schema uses: no `$id`, no type lists (an `anyOf` instead), and `nullable`
 * instead of a `{ type: 'null' }` branch; an `enum` also states its type, as generators expect.
 */
function toOpenApi(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toOpenApi);
  if (!schema || typeof schema !== 'object') return schema;
  const { $id: _id, ...rest } = schema as Schema;
  const out = Object.fromEntries<unknown>(Object.entries(rest).map(([key, value]) => [key, toOpenApi(value)]));
  if (Array.isArray(out.type)) {
    const types = out.type as string[];
    delete out.type;
    return { ...out, anyOf: types.map((type) => ({ type })) };
  }
  const branches = out.anyOf as Schema[] | undefined;
  const nonNull = branches?.filter((branch) => branch.type !== 'null');
  if (branches && nonNull && nonNull.length === 1 && branches.length === 2) {
    delete out.anyOf;
    return { ...out, ...nonNull[0], nullable: true };
  }
  if (Array.isArray(out.enum) && out.type === undefined && out.enum.every((v) => typeof v === 'string')) return { type: 'string', ...out };
  return out;
}

export const CONNECTOR_DEFINITION_OPENAPI = toOpenApi(CONNECTOR_DEFINITION_SCHEMA) as Schema;
