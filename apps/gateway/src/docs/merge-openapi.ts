import { GATEWAY_PATHS, GATEWAY_SCHEMAS, GATEWAY_TAGS } from './gateway-operations.js';

/** Minimal view of an OpenAPI 3 document: only what merging touches. */
export interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  paths?: Record<string, unknown>;
  components?: Record<string, Record<string, unknown> | undefined>;
  tags?: { name: string; description?: string }[];
  servers?: unknown[];
  security?: unknown[];
  [key: string]: unknown;
}

function pascal(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** Each service's own health; through the gateway `/actuator/health` is the aggregate, described once. */
const SERVICE_OWN_PATHS = /^\/actuator\/health(\/|$)/;

/**
 * One document of every service, for client generation (the spec's `/v3/api-docs`), plus the
 * gateway's own routes (health, docs). Nothing here depends on the order the services answer in:
 * - operation ids are unique by construction (each service prefixes its own), and a clash is an
 *   error rather than a silent rename;
 * - a component name that services use for different things is prefixed with the service name
 *   in every one of them (`RunItem`, `StorageItem`), with their references rewritten;
 * - tags are the union, each declared once.
 */
export function mergeOpenApi(documents: { service: string; document: OpenApiDocument }[]): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.0.0',
    info: {
      title: 'Workflow automation platform',
      version: '1.0.0',
      description:
        'Every service of the platform in one description, as the gateway serves it. Each service also publishes its own at `/v3/api-docs/<service>`, ' +
        "whose description lists the service's planned endpoints (they answer 501 until built and are not described).\n\n" +
        'Authenticate with an API key (`X-API-Key` or `Authorization: Bearer sv_…`) or a JWT with `X-SELECTED-TENANT`. ' +
        'Errors use one shape, the `Error` schema: `{ error, message, status, request_id, details? }`. Every route but health is rate limited per credential (429 with `Retry-After`).',
      contact: { name: 'Workflow automation platform' },
    },
    servers: [{ url: '/', description: 'The gateway' }],
    paths: {},
    components: { schemas: { ...GATEWAY_SCHEMAS } },
    tags: [...GATEWAY_TAGS],
  };

  // Component names that two services define differently: prefixed in every service that has them.
  const definitions = new Map<string, string>();
  const clashing = new Set<string>();
  for (const { document } of documents) {
    for (const [kind, entries] of Object.entries(document.components ?? {})) {
      if (kind === 'securitySchemes') continue;
      for (const [name, value] of Object.entries(entries ?? {})) {
        const key = `${kind}/${name}`;
        const json = JSON.stringify(value);
        if (definitions.has(key) && definitions.get(key) !== json) clashing.add(key);
        else definitions.set(key, json);
      }
    }
  }

  const owners = new Map<string, string>();
  for (const { service, document } of documents) {
    const doc = renameComponents(document, service, clashing);
    for (const [path, operations] of Object.entries(doc.paths ?? {})) {
      if (SERVICE_OWN_PATHS.test(path)) continue;
      if (path in merged.paths!) throw new Error(`OpenAPI merge: ${service} and ${owners.get(path)} both describe ${path}`);
      owners.set(path, service);
      merged.paths![path] = operations;
    }
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      Object.assign((merged.components![kind] ??= {}), entries ?? {});
    }
    for (const tag of doc.tags ?? []) {
      if (!merged.tags!.some((t) => t.name === tag.name)) merged.tags!.push(tag);
    }
  }
  Object.assign(merged.paths!, GATEWAY_PATHS);

  const ids = new Map<string, string>();
  for (const [path, operations] of Object.entries(merged.paths!)) {
    for (const [method, operation] of Object.entries(operations as Record<string, { operationId?: string }>)) {
      const id = operation?.operationId;
      if (!id) continue;
      if (ids.has(id)) throw new Error(`OpenAPI merge: operationId ${id} of ${method.toUpperCase()} ${path} is also ${ids.get(id)}`);
      ids.set(id, `${method.toUpperCase()} ${path}`);
    }
  }
  // Tags no operation uses (a service's health tag, whose paths the gateway's replace) are dropped.
  const used = new Set(
    Object.values(merged.paths!).flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((o) => o?.tags ?? [])),
  );
  merged.tags = merged.tags!.filter((t) => used.has(t.name));
  return merged;
}

function renameComponents(document: OpenApiDocument, service: string, clashing: Set<string>): OpenApiDocument {
  const renames: [string, string, string, string][] = [];
  for (const [kind, entries] of Object.entries(document.components ?? {})) {
    for (const name of Object.keys(entries ?? {})) {
      if (clashing.has(`${kind}/${name}`)) renames.push([kind, name, `${pascal(service)}${name}`, `#/components/${kind}/${name}"`]);
    }
  }
  if (!renames.length) return document;
  let text = JSON.stringify(document);
  for (const [kind, , renamed, from] of renames) text = text.split(from).join(`#/components/${kind}/${renamed}"`);
  const doc = JSON.parse(text) as OpenApiDocument;
  for (const [kind, name, renamed] of renames) {
    const entries = doc.components![kind]!;
    entries[renamed] = entries[name];
    delete entries[name];
  }
  return doc;
}
