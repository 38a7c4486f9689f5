import { randomUUID } from 'node:crypto';
import { sample } from 'openapi-sampler';
import { resolve, type OpenApiDocument, type Operation, type Parameter, type Schema } from './openapi-operations.js';

/** One request of the fuzz: what it tries (`case`), and what is sent. */
export interface FuzzRequest {
  case: string;
  method: string;
  /** The path with its parameters filled in and its query string. */
  path: string;
  /** Sent as is: JSON text, or another media type's text. */
  body?: string;
  contentType?: string;
}

/** A cursor that decodes to the right shape with a wrong value, one of the wrong shape, and one that does not decode. */
const CURSORS = [Buffer.from('{"id":"fz"}').toString('base64url'), Buffer.from('{}').toString('base64url'), '%%%', 'e30'];
const HUGE_STRING = 'x'.repeat(100_000);
const HUGE_ARRAY_ITEMS = 100_000;

/** A value the schema describes (the document's example where it gives one), for the parts of a request not under test. */
export function sampleOf(doc: OpenApiDocument, schema: Schema | undefined): unknown {
  if (!schema) return {};
  try {
    return sample(schema as never, { skipReadOnly: true, quiet: true, maxSampleDepth: 6 }, doc);
  } catch {
    return {};
  }
}

/** A value of another JSON type than the schema's. */
export function wrongType(schema: Schema | undefined): unknown {
  switch (schema?.type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'a list' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return schema?.$ref ? 'not an object' : [[]];
  }
}

function pathParamValue(p: Parameter): string {
  return p.schema?.format === 'uuid' || /id$/i.test(p.name) ? randomUUID() : JSON.stringify(p.example ?? p.schema?.example ?? 'x').replace(/^"|"$/g, '');
}

/** The operation's path with its parameters (`values` where given) and a query string. */
export function pathOf(op: Operation, values: Record<string, string> = {}, query: Record<string, string> = {}): string {
  let path = op.path;
  for (const p of op.parameters.filter((q) => q.in === 'path')) path = path.replace(`{${p.name}}`, values[p.name] ?? encodeURIComponent(pathParamValue(p)));
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

/** The query parameters an operation needs (its required ones, sampled). */
function requiredQuery(doc: OpenApiDocument, op: Operation): Record<string, string> {
  const query: Record<string, string> = {};
  for (const p of op.parameters.filter((q) => q.in === 'query' && q.required)) query[p.name] = String(p.example ?? sampleOf(doc, p.schema));
  return query;
}

/**
 * The fixed catalogue of hostile requests for one operation, from its description alone: a valid
 * request, then one change at a time (each required field missing, each field null, of the wrong
 * type, with NUL or a lone surrogate, a huge string and a huge list, a body that is not an
 * object; each query parameter of the wrong type or with NUL, malformed cursors; path parameters
 * that are NUL, not ids, or too long).
 */
export function hostileRequests(doc: OpenApiDocument, op: Operation): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const query = requiredQuery(doc, op);
  const path = pathOf(op, {}, query);
  const add = (c: string, o: Partial<FuzzRequest> = {}) => requests.push({ case: c, method: op.method, path, ...o });
  const json = (value: unknown) => ({ body: JSON.stringify(value), contentType: 'application/json' });

  if (op.jsonBody) {
    const schema = op.jsonBody;
    const valid = sampleOf(doc, schema);
    add('a valid body', json(valid));
    if (op.bodyRequired) add('no body');
    if (schema.type === 'object' || schema.properties) {
      for (const other of [[], null, 'text', 5]) add(`a body that is ${JSON.stringify(other)}`, json(other));
      const base = (valid && typeof valid === 'object' && !Array.isArray(valid) ? valid : {}) as Record<string, unknown>;
      const properties = Object.entries(schema.properties ?? {});
      for (const name of schema.required ?? []) {
        const { [name]: _, ...rest } = base;
        add(`required ${name} missing`, json(rest));
      }
      for (const [name, raw] of properties) {
        const field = resolve(doc, raw);
        add(`${name}: null`, json({ ...base, [name]: null }));
        add(`${name}: wrong type`, json({ ...base, [name]: wrongType(field) }));
        if (field?.type === 'string' || field?.type === undefined) {
          add(`${name}: NUL`, json({ ...base, [name]: 'a\u0000b' }));
          add(`${name}: lone surrogate`, json({ ...base, [name]: 'a\ud800b' }));
        }
      }
      const text = properties.find(([, raw]) => resolve(doc, raw)?.type === 'string');
      if (text) add(`${text[0]}: 100,000 characters`, json({ ...base, [text[0]]: HUGE_STRING }));
      const list = properties.find(([, raw]) => resolve(doc, raw)?.type === 'array');
      if (list) {
        const item = sampleOf(doc, resolve(doc, resolve(doc, list[1])?.items));
        add(`${list[0]}: ${HUGE_ARRAY_ITEMS} items`, json({ ...base, [list[0]]: Array.from({ length: HUGE_ARRAY_ITEMS }, () => item) }));
      }
      const free = properties.find(([, raw]) => {
        const s = resolve(doc, raw);
        return s?.type === 'object' && !s.properties;
      });
      if (free) add(`${free[0]}: NUL in a key`, json({ ...base, [free[0]]: { 'k\u0000': 'v', nested: { v: 'a\u0000' } } }));
    } else if (schema.type === 'array') {
      add(`${HUGE_ARRAY_ITEMS} items`, json(Array.from({ length: HUGE_ARRAY_ITEMS }, () => sampleOf(doc, resolve(doc, schema.items)))));
      add('a body that is an object', json({}));
    }
    add('a body that is not JSON', { body: '{"unterminated', contentType: 'application/json' });
  } else if (op.otherBody) {
    add(`an empty ${op.otherBody} body`, { body: '', contentType: op.otherBody });
    add('JSON where another media type is expected', json({ a: 1 }));
  } else {
    add('a valid request');
  }

  for (const p of op.parameters.filter((q) => q.in === 'query')) {
    const at = (value: string) => pathOf(op, {}, { ...query, [p.name]: value });
    if (p.name === 'cursor') {
      for (const cursor of CURSORS) add(`cursor ${cursor}`, { path: at(cursor) });
      continue;
    }
    const wrong = wrongType(resolve(doc, p.schema));
    add(`query ${p.name}: wrong type`, { path: at(typeof wrong === 'string' ? wrong : JSON.stringify(wrong)) });
    add(`query ${p.name}: NUL`, { path: at('a\u0000b') });
    if (resolve(doc, p.schema)?.type === 'integer') add(`query ${p.name}: huge`, { path: at('1e400') });
  }
  for (const p of op.parameters.filter((q) => q.in === 'path')) {
    for (const [c, value] of [
      ['NUL', '%00'],
      ['not an id', 'not-an-id'],
      ['300 characters', 'x'.repeat(300)],
    ] as const)
      add(`path ${p.name}: ${c}`, { path: pathOf(op, { [p.name]: value }, query) });
  }
  return requests;
}
