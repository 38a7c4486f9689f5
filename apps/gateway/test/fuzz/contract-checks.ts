import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { documents, type OpenApiDocument, type Operation, type Schema } from './openapi-operations.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

/**
 * What the contract promises for every answer, by kind. `server-error` and `error-shape` are never
 * excused; the others may be listed, with a reason, in known-drift.json while they are fixed.
 */
export type ProblemKind = 'server-error' | 'undocumented-status' | 'error-shape' | 'error-code' | 'response-schema';
export const NEVER_EXCUSED: ProblemKind[] = ['server-error', 'error-shape'];

export interface Problem {
  kind: ProblemKind;
  detail: string;
}

export interface Answer {
  status: number;
  contentType: string;
  body: unknown;
}

/** Validates answers against the document's response schemas (OpenAPI 3.0: `nullable`, formats), compiling each once. */
export class ResponseValidator {
  private readonly ajv: Ajv;
  private readonly compiled = new Map<Schema, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv({ strict: false, allErrors: false, validateFormats: true });
    addFormats(this.ajv);
    // Refs inside the document point at #/components/…: they resolve inside the schema registered as `doc`.
    const components = withNulls(JSON.parse(JSON.stringify({ components: doc.components }).replaceAll('"#/components/', '"doc#/components/'))) as object;
    this.ajv.addSchema(components, 'doc');
  }

  errors(schema: Schema, body: unknown): string | undefined {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(withNulls(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'))) as object);
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: 'body' });
  }
}

/**
 * OpenAPI 3.0's `nullable` beside a `$ref` or `allOf` (how @nestjs/swagger writes a nullable
 * object) is not applied by ajv to the referenced schema: written as JSON Schema's "this, or null".
 */
function withNulls(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withNulls);
  if (!schema || typeof schema !== 'object') return schema;
  const out = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, withNulls(v)]));
  if (out.nullable === true && (out.type === undefined || out.allOf || out.$ref || out.oneOf || out.anyOf)) {
    const { nullable: _, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }] };
  }
  return out;
}

const isText = (v: unknown) => typeof v === 'string' && v.length > 0;

/** Everything wrong with one answer to one request of `op`. */
export function problemsOf(op: Operation, answer: Answer, validator: ResponseValidator): Problem[] {
  const problems: Problem[] = [];
  const { status, body } = answer;
  const json = answer.contentType.includes('json');
  if (status >= 500) problems.push({ kind: 'server-error', detail: `answered ${status}: ${JSON.stringify(body).slice(0, 300)}` });
  if (!documents(op, status)) problems.push({ kind: 'undocumented-status', detail: `answered ${status}, not documented` });
  if (status >= 400 && op.page && answer.contentType.includes('text/html')) {
    // A page answers a person in a browser with a page, whatever went wrong.
  } else if (status >= 400) {
    const e = body as Record<string, unknown>;
    if (!json || typeof e !== 'object' || e === null || !isText(e.error) || !isText(e.message) || e.status !== status || !isText(e.request_id))
      problems.push({ kind: 'error-shape', detail: `error body not in the error shape: ${JSON.stringify(body).slice(0, 300)}` });
    else if (!isText(e.code)) problems.push({ kind: 'error-code', detail: `error without a code: ${String(e.message).slice(0, 200)}` });
  } else if (status >= 200 && status < 300 && status !== 204) {
    const schema = op.responses.get(String(status));
    if (schema && json) {
      const errors = validator.errors(schema, body);
      if (errors) problems.push({ kind: 'response-schema', detail: `${status} body does not match its schema: ${errors.slice(0, 300)}` });
    }
  }
  return problems;
}
