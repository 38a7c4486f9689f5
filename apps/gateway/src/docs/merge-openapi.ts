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

/**
 * One document of every service, for client generation (the spec's `/v3/api-docs`). Component
 * names that two services use for different things are prefixed with the later service's name,
 * and that service's references are rewritten to match.
 */
export function mergeOpenApi(documents: { service: string; document: OpenApiDocument }[]): OpenApiDocument {
  const merged: OpenApiDocument = {
    openapi: '3.0.0',
    info: {
      title: 'Workflow automation platform',
      version: '1.0.0',
      description: 'Every service of the platform in one description. Each service also publishes its own at /v3/api-docs/<service>.',
    },
    servers: [{ url: '/' }],
    paths: {},
    components: {},
    tags: [],
  };
  const operationIds = new Set<string>();
  for (const { service, document } of documents) {
    let doc = document;
    const renames: [string, string][] = [];
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      const target = (merged.components![kind] ??= {});
      for (const [name, value] of Object.entries(entries ?? {})) {
        if (name in target && JSON.stringify(target[name]) !== JSON.stringify(value) && kind !== 'securitySchemes') {
          renames.push([`#/components/${kind}/${name}"`, `#/components/${kind}/${pascal(service)}${name}"`]);
        }
      }
    }
    if (renames.length) {
      let text = JSON.stringify(doc);
      for (const [from, to] of renames) text = text.split(from).join(to);
      doc = JSON.parse(text) as OpenApiDocument;
      for (const [from, to] of renames) {
        const [, kind, name] = /#\/components\/(\w+)\/(\w+)"/.exec(from)!;
        const renamed = /#\/components\/\w+\/(\w+)"/.exec(to)![1];
        const entries = doc.components![kind]!;
        entries[renamed] = entries[name];
        delete entries[name];
      }
    }
    for (const [path, operations] of Object.entries(doc.paths ?? {})) {
      for (const operation of Object.values(operations as Record<string, { operationId?: string }>)) {
        // Every service has a HealthController_health; client generators need unique ids.
        if (operation?.operationId && operationIds.has(operation.operationId)) operation.operationId = `${pascal(service)}_${operation.operationId}`;
        if (operation?.operationId) operationIds.add(operation.operationId);
      }
      merged.paths![path] = operations;
    }
    for (const [kind, entries] of Object.entries(doc.components ?? {})) {
      Object.assign((merged.components![kind] ??= {}), entries ?? {});
    }
    for (const tag of doc.tags ?? []) {
      if (!merged.tags!.some((t) => t.name === tag.name)) merged.tags!.push(tag);
    }
  }
  return merged;
}
