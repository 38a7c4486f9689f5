import fc from 'fast-check';
import { resolve, type OpenApiDocument, type Schema } from './openapi-operations.js';

/** Strings a client may send that a careless service chokes on. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  'x'.repeat(5000),
  '{% $eval("1") %}',
  "'; drop table x; --",
  '../../etc/passwd',
  '%00',
];
const HOSTILE_NUMBERS = [-1, 0, 1.5, 2 ** 31, -(2 ** 53), 1e308];

function stringOf(schema: Schema): fc.Arbitrary<string> {
  if (schema.enum?.length) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time') return fc.date({ min: new Date(2000, 0, 1), max: new Date(2100, 0, 1), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
  if (schema.format === 'email') return fc.emailAddress();
  return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 24, 24) });
}

/**
 * Bodies for a schema, mostly well-formed (so requests reach the code behind validation) with a
 * hostile value in some fields: NUL, lone surrogates, huge or empty strings, numbers out of range,
 * wrong types, nulls, unknown fields. fast-check shrinks a failing body to the smallest one.
 */
export function bodyArbitrary(doc: OpenApiDocument, raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (!schema || depth > 4) return fc.jsonValue({ maxDepth: 1 });
  const hostile = fc.oneof(fc.constantFrom<unknown>(...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, null, true, [], {}), fc.jsonValue({ maxDepth: 2 }));
  const choice = schema.oneOf ?? schema.anyOf;
  let valid: fc.Arbitrary<unknown>;
  if (choice?.length) valid = fc.oneof(...choice.map((s) => bodyArbitrary(doc, s, depth + 1)));
  else if (schema.type === 'object' || schema.properties) {
    if (!schema.properties) valid = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    else {
      const fields = Object.fromEntries(Object.entries(schema.properties).map(([name, s]) => [name, bodyArbitrary(doc, s, depth + 1)]));
      valid = fc.record(fields, { requiredKeys: (schema.required ?? []).filter((k) => k in fields) });
    }
  } else if (schema.type === 'array') valid = fc.array(bodyArbitrary(doc, schema.items, depth + 1), { maxLength: 3 });
  else if (schema.type === 'string') valid = stringOf(schema);
  else if (schema.type === 'integer') valid = fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
  else if (schema.type === 'number') valid = fc.double({ noNaN: true, noDefaultInfinity: true, min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6 });
  else if (schema.type === 'boolean') valid = fc.boolean();
  else valid = fc.jsonValue({ maxDepth: 2 });
  // The top level stays the right shape more often, so the request gets past the first check.
  return depth === 0
    ? fc.oneof({ arbitrary: valid, weight: 5 }, { arbitrary: hostile, weight: 1 })
    : fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: hostile, weight: 1 });
}
