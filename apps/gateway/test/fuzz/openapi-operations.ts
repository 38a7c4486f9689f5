/** The parts of the merged OpenAPI document (3.0) the contract fuzz reads. */
export type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  example?: unknown;
  default?: unknown;
  readOnly?: boolean;
  [key: string]: unknown;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  example?: unknown;
}

interface RawOperation {
  operationId?: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  security?: Record<string, string[]>[];
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, Schema> };
}

/** How a request to the operation authenticates, from its `security`. */
export type Auth = 'key' | 'admin' | 'none';

export interface Operation {
  id: string;
  method: string;
  /** The path template, `{name}` for each path parameter. */
  path: string;
  /** `GET /run/executions/{id}`: how a failure names it. */
  label: string;
  parameters: Parameter[];
  /** The JSON body's schema, refs resolved at its top level; undefined when the body is not JSON or there is none. */
  jsonBody?: Schema;
  /** A body in another media type (a file, a form): only its refusals are fuzzed. */
  otherBody?: string;
  bodyRequired: boolean;
  /** Documented statuses (`200`, `4XX`, `default`) with their JSON schema when they have one. */
  responses: Map<string, Schema | undefined>;
  auth: Auth;
  /** A page for browsers (a 2xx in text/html, or another method of such a path): its errors are pages too. */
  page: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema with its top-level `$ref` (and a lone allOf wrapper) followed, so its properties can be read. */
export function resolve(doc: OpenApiDocument, schema: Schema | undefined, seen = 0): Schema | undefined {
  if (!schema || seen > 20) return schema;
  if (schema.$ref) return resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()!], seen + 1);
  if (schema.allOf?.length === 1 && !schema.properties) return resolve(doc, { ...schema.allOf[0], nullable: schema.nullable }, seen + 1);
  return schema;
}

function authOf(security: RawOperation['security']): Auth {
  if (!security || security.length === 0) return 'none';
  if (security.some((s) => 'api_key' in s || 'jwt' in s || 'api_key_bearer' in s)) return 'key';
  return security.some((s) => 'admin_token' in s) ? 'admin' : 'key';
}

/** Every operation of the document, in a stable order: generated from the description, so a new route is covered by construction. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const path of Object.keys(doc.paths).sort()) {
    for (const method of METHODS) {
      const raw = doc.paths[path][method];
      if (!raw) continue;
      const content = raw.requestBody?.content ?? {};
      const responses = new Map<string, Schema | undefined>();
      for (const [status, response] of Object.entries(raw.responses ?? {})) responses.set(status, response.content?.['application/json']?.schema);
      operations.push({
        id: raw.operationId ?? `${method} ${path}`,
        method: method.toUpperCase(),
        path,
        label: `${method.toUpperCase()} ${path}`,
        parameters: (raw.parameters ?? []).filter((p) => p.in === 'path' || p.in === 'query'),
        jsonBody: content['application/json'] ? resolve(doc, content['application/json'].schema ?? {}) : undefined,
        otherBody: content['application/json'] ? undefined : Object.keys(content)[0],
        bodyRequired: raw.requestBody?.required === true,
        responses,
        auth: authOf(raw.security),
        page: Object.entries(raw.responses ?? {}).some(([status, r]) => status.startsWith('2') && r.content?.['text/html'] !== undefined),
      });
    }
  }
  // A form's POST answers the browser that posted it: a page like its GET's.
  for (const op of operations) op.page ||= operations.some((o) => o.path === op.path && o.page);
  return operations;
}

/** Whether the operation documents `status`, exactly or by its class (`4XX`) or as `default`. */
export function documents(op: Operation, status: number): boolean {
  return op.responses.has(String(status)) || op.responses.has(`${String(status)[0]}XX`) || op.responses.has('default');
}
