import { STATUS_CODES } from 'node:http';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AUTH_EXTENSION, SCOPES_EXTENSION, SECURITY_SCHEMES } from '@platform/auth';
import type { ErrorBody } from '@platform/common';
import { STANDARD_DESCRIPTIONS, ERROR_SCHEMA_REF, ERROR_SCHEMAS, errorExample, errorExamples } from './error-responses.js';

/**
 * Completes the document @nestjs/swagger builds from the controllers, so that every service
 * describes itself the same way without repeating it on each route:
 * - operation ids prefixed by the service (unique across the merged document by construction);
 * - `security: []` on public routes (the auth decorators mark them);
 * - the scopes a route requires, at the end of its description;
 * - the errors every route can answer (400/413/415 when it takes a body, 400 for invalid
 *   parameters, 404 for a path naming a resource, 500), each with the error schema and examples;
 * - the tags operations use, declared with their descriptions.
 */

type Json = Record<string, unknown>;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; description?: string; content?: Record<string, { schema?: Json }> };
  responses: Record<string, Response>;
  security?: unknown[];
  [AUTH_EXTENSION]?: string;
  [SCOPES_EXTENSION]?: string[];
}

interface Parameter {
  name: string;
  in: string;
  schema?: Json;
  required?: boolean;
  description?: string;
}

interface Response {
  description?: string;
  content?: Record<string, { schema?: Json; example?: unknown; examples?: Record<string, unknown> }>;
}

export interface CompleteOptions {
  service: string;
  /** Descriptions of the tags operations use (from `@ApiTag`). */
  tags: ReadonlyMap<string, string>;
  /** Extra component schemas (e.g. a JSON Schema referenced by $ref). */
  schemas?: Record<string, object>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Headers the auth decorators document on every tenant route: not fields a validation error names. */
const AUTH_HEADERS = new Set(['x-selected-tenant', 'x-selected-env', 'x-scope-key']);

const SUCCESS_DESCRIPTIONS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content' };

/** `kb-worker` → `kbWorker`. */
export function serviceIdPrefix(service: string): string {
  return service.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}

/**
 * `WorkflowsController` + `create` → `run_workflows_create`. A handler mounted on both path forms
 * gets `_apiV1` on its `/api/v1/workflow/...` form: ids never depend on the order of paths.
 */
export function operationIdFor(service: string, nestId: string, path: string): string {
  const prefix = serviceIdPrefix(service);
  const match = /^(\w+?)(?:Controller)?\.(\w+)(\[\d+\])?$/.exec(nestId);
  if (!match) return `${prefix}_${nestId}`;
  const [, controller, method, alias] = match;
  const base = `${prefix}_${controller[0].toLowerCase()}${controller.slice(1)}_${method}`;
  return alias && path.startsWith('/api/v1/workflow/') ? `${base}_apiV1` : base;
}

export function completeOpenApiDocument(document: OpenAPIObject, options: CompleteOptions): OpenAPIObject {
  const components = (document.components ??= {});
  components.securitySchemes = { ...(components.securitySchemes ?? {}), ...(SECURITY_SCHEMES as unknown as Record<string, never>) };
  components.schemas = {
    ...(components.schemas ?? {}),
    ...(ERROR_SCHEMAS as unknown as Record<string, never>),
    ...((options.schemas ?? {}) as Record<string, never>),
  };
  const schemas = components.schemas as Record<string, Json>;

  const ids = new Map<string, string>();
  const usedTags: string[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (!operation) continue;
      const route = `${method.toUpperCase()} ${path}`;
      const id = operationIdFor(options.service, operation.operationId ?? route, path);
      const clash = ids.get(id);
      if (clash) throw new Error(`OpenAPI: operationId ${id} of ${route} is already used by ${clash}`);
      ids.set(id, route);
      operation.operationId = id;

      const auth = operation[AUTH_EXTENSION];
      delete operation[AUTH_EXTENSION];
      if (auth === 'public') operation.security = [];
      const scopes = operation[SCOPES_EXTENSION];
      if (auth === 'tenant' && operation.description) {
        operation.description += scopes?.length
          ? `\n\nRequires ${scopes.length > 1 ? 'the scopes' : 'the scope'} ${scopes.map((s) => `\`${s}\``).join(', ')} (a key with \`*\` has every scope).`
          : '\n\nAny valid credential of the tenant.';
      }
      for (const tag of operation.tags ?? []) if (!usedTags.includes(tag)) usedTags.push(tag);

      dedupeHeaders(operation);
      describePathParameters(operation, path);
      describeBodyRequirement(operation, schemas);
      completeResponses(operation, schemas, auth === 'tenant');
    }
  }

  document.tags = usedTags.map((name) => {
    const description = options.tags.get(name) ?? document.tags?.find((t) => t.name === name)?.description;
    return description ? { name, description } : { name };
  });
  return document;
}

/**
 * A body class with no required field may be left out: the validation pipe takes a missing body as
 * `{}` (`POST /run/workflows/{id}/execute` without input, a PATCH that changes nothing), so the
 * description says `required: false` there. A body class with a required field keeps `required:
 * true`, and a request without a body is 400 naming the missing fields.
 */
function describeBodyRequirement(operation: Operation, schemas: Record<string, Json>): void {
  const body = operation.requestBody;
  const schema = body?.content?.['application/json']?.schema;
  if (!body || Object.keys(body.content ?? {}).length !== 1 || typeof schema?.$ref !== 'string') return;
  const resolved = resolve(schema, schemas);
  if (!resolved || ((resolved.required as unknown[] | undefined) ?? []).length > 0) return;
  body.required = false;
  body.description ??= 'May be left out: a request without a body is taken as `{}`';
}

function completeResponses(operation: Operation, schemas: Record<string, Json>, tenant: boolean): void {
  const responses = operation.responses;
  const body = operation.requestBody;
  const takesJson = body?.content !== undefined && Object.keys(body.content).some((type) => /json/.test(type));
  // A body class (its schema a reference with properties): the validation pipe refuses any other JSON value.
  const bodySchema = body?.content?.['application/json']?.schema;
  const objectBody = typeof bodySchema?.$ref === 'string' && Object.keys((resolve(bodySchema, schemas)?.properties as Json | undefined) ?? {}).length > 0;
  const params = (operation.parameters ?? []).filter((p) => p.in !== 'header' || !AUTH_HEADERS.has(p.name.toLowerCase()));
  const add = (status: number, description: string) => {
    const existing = responses[status];
    if (!existing) responses[status] = { description };
    else if (!(existing.description ?? '').split('\n\n').includes(description))
      existing.description = existing.description ? `${existing.description}\n\n${description}` : description;
  };

  if (body || params.length) add(400, STANDARD_DESCRIPTIONS.validation);
  if (takesJson) add(400, STANDARD_DESCRIPTIONS.malformed);
  if (objectBody) add(400, STANDARD_DESCRIPTIONS.notObject);
  if (body) {
    if (!responses[413]) add(413, STANDARD_DESCRIPTIONS.tooLarge);
    if (!responses[415]) add(415, STANDARD_DESCRIPTIONS.mediaType);
  }
  if (params.some((p) => p.in === 'path') && !responses[404]) add(404, STANDARD_DESCRIPTIONS.notFound);
  if (!responses[500]) add(500, STANDARD_DESCRIPTIONS.internal);

  const validation = validationExample(operation, params, schemas);
  for (const [code, response] of Object.entries(responses)) {
    const status = Number(code);
    if (status >= 200 && status < 300 && !response.description) response.description = SUCCESS_DESCRIPTIONS[code] ?? STATUS_CODES[status] ?? 'Success';
    if (!(status >= 400)) continue;
    const given = response.content?.['application/json']?.schema;
    const onlyExample = given !== undefined && Object.keys(given).length === 1 && 'example' in given;
    // A route that gives its own schema keeps it (health's 503 answers a health report, not an error).
    if (given && !onlyExample) continue;
    const examples = errorExamples(status, response.description, { validation, takesJson, objectBody, tenant });
    if (onlyExample) examples.rejected = { summary: response.description?.split('\n\n')[0] ?? 'Rejected', value: given.example as ErrorBody };
    response.description ||= STATUS_CODES[status] ?? 'Error';
    response.content = { 'application/json': { schema: { $ref: ERROR_SCHEMA_REF }, examples } };
  }
}

/**
 * `@Headers('idempotency-key')` makes Nest describe a required, undescribed header next to the
 * `@ApiHeader({ name: 'Idempotency-Key' })` that documents it: header names are case-insensitive,
 * so the documented one is kept.
 */
function dedupeHeaders(operation: Operation): void {
  const headers = (operation.parameters ?? []).filter((p) => p.in === 'header');
  const keep = new Map<string, Parameter>();
  for (const header of headers) {
    const key = header.name.toLowerCase();
    const seen = keep.get(key);
    if (!seen || (!seen.description && header.description)) keep.set(key, header);
  }
  operation.parameters = operation.parameters?.filter((p) => p.in !== 'header' || keep.get(p.name.toLowerCase()) === p);
}

/**
 * Path parameters a controller reads with `@Param` but does not describe: `{id}` after
 * `/workflows` is "The workflow's id". Ids (`id`, `keyId`, …) are UUIDs on every route.
 */
function describePathParameters(operation: Operation, path: string): void {
  const segments = path.split('/');
  for (const param of operation.parameters ?? []) {
    if (param.in !== 'path') continue;
    const isId = /^(id|[a-z]+Id)$/.test(param.name);
    // A route whose ids are not UUIDs (catalogue slugs such as `slack`) describes its own with a length or pattern.
    const ownForm = param.schema && ['format', 'pattern', 'maxLength'].some((key) => key in param.schema!);
    if (isId && !ownForm) param.schema = { format: 'uuid', ...(param.schema ?? { type: 'string' }) };
    if (param.description) continue;
    const at = segments.indexOf(`{${param.name}}`);
    const owner = param.name === 'id' ? segments[at - 1] : param.name.replace(/Id$/, '').replace(/([A-Z])/g, ' $1');
    const noun = (owner ?? 'resource').replace(/-/g, ' ').replace(/ies$/, 'y').replace(/s$/, '').toLowerCase();
    param.description = isId ? `The ${noun}'s id` : `The ${noun}`;
  }
}

/** What the route answers to an invalid field: the first required field of its body, else its first parameter. */
function validationExample(operation: Operation, params: Parameter[], schemas: Record<string, Json>): ErrorBody | undefined {
  const bodySchema = resolve(Object.values(operation.requestBody?.content ?? {})[0]?.schema, schemas);
  const properties = bodySchema?.properties as Record<string, Json> | undefined;
  if (properties && Object.keys(properties).length) {
    const required = (bodySchema!.required as string[] | undefined) ?? [];
    const field = required.find((name) => name in properties) ?? Object.keys(properties)[0];
    const message = problemOf(resolve(properties[field], schemas) ?? {}, required.includes(field));
    return errorExample(400, `Validation failed: ${field} ${message}`, [{ field, message }]);
  }
  const param = params.find((p) => p.in === 'query') ?? params.find((p) => p.in === 'path');
  if (!param) return undefined;
  // Path ids go through Nest's ParseUUIDPipe, which answers without details.
  if (param.in === 'path' && param.schema?.format === 'uuid') return errorExample(400, 'Validation failed (uuid is expected)');
  if (param.in === 'path') return undefined;
  const message = problemOf(param.schema ?? {}, false);
  return errorExample(400, `Validation failed: ${param.name} ${message}`, [{ field: param.name, message }]);
}

function resolve(schema: Json | undefined, schemas: Record<string, Json>): Json | undefined {
  const ref = schema?.$ref;
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) return schemas[ref.slice('#/components/schemas/'.length)];
  return schema;
}

/** The message class-validator gives a wrong value of this schema. */
function problemOf(schema: Json, required: boolean): string {
  if (Array.isArray(schema.enum)) return `must be one of the following values: ${(schema.enum as unknown[]).join(', ')}`;
  if (schema.format === 'uuid') return 'must be a UUID';
  if (schema.format === 'date-time') return 'must be a valid ISO 8601 date string';
  switch (schema.type) {
    case 'integer':
    case 'number':
      if (typeof schema.maximum === 'number') return `must not be greater than ${schema.maximum}`;
      return schema.type === 'integer' ? 'must be an integer number' : 'must be a number conforming to the specified constraints';
    case 'boolean':
      return 'must be a boolean value';
    case 'array':
      return 'must be an array';
    case 'object':
      return 'must be an object';
    default:
      return required && typeof schema.minLength === 'number' ? `must be longer than or equal to ${schema.minLength} characters` : 'must be a string';
  }
}
