import { describe, expect, it } from '@jest/globals';
import { mergeOpenApi, type OpenApiDocument } from './merge-openapi.js';

const ref = (name: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } });

const doc = (service: string, paths: Record<string, unknown>, schemas: Record<string, unknown>, tags: string[]): OpenApiDocument => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths: {
    '/actuator/health': { get: { operationId: `${service}_health_health`, tags: ['health'], responses: { 200: { description: 'UP' } } } },
    ...paths,
  },
  components: { schemas, securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  tags: [{ name: 'health', description: 'Health' }, ...tags.map((name) => ({ name, description: name }))],
});

type Op = { operationId: string; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> };

describe('mergeOpenApi', () => {
  const a = doc(
    'catalog',
    { '/a': { get: { operationId: 'catalog_items_list', tags: ['items'], responses: { 200: ref('Item') } } } },
    { Item: { type: 'string' }, Same: { type: 'integer' } },
    ['items'],
  );
  const b = doc(
    'kb-worker',
    { '/b': { get: { operationId: 'kbWorker_items_list', tags: ['kb'], responses: { 200: ref('Item') } } } },
    { Item: { type: 'number' }, Same: { type: 'integer' } },
    ['kb'],
  );

  it('keeps every path and operation id, shares identical components and prefixes clashing ones in every service', () => {
    const merged = mergeOpenApi([
      { service: 'catalog', document: a },
      { service: 'kb-worker', document: b },
    ]);
    expect(Object.keys(merged.paths!)).toEqual(expect.arrayContaining(['/a', '/b']));
    const schemas = merged.components!.schemas!;
    expect(schemas.Same).toEqual({ type: 'integer' });
    expect(schemas.CatalogItem).toEqual({ type: 'string' });
    expect(schemas.KbWorkerItem).toEqual({ type: 'number' });
    expect(schemas.Item).toBeUndefined();
    const aOp = (merged.paths!['/a'] as { get: Op }).get;
    const bOp = (merged.paths!['/b'] as { get: Op }).get;
    expect(aOp.responses[200].content['application/json'].schema.$ref).toBe('#/components/schemas/CatalogItem');
    expect(bOp.responses[200].content['application/json'].schema.$ref).toBe('#/components/schemas/KbWorkerItem');
    expect([aOp.operationId, bOp.operationId]).toEqual(['catalog_items_list', 'kbWorker_items_list']);
  });

  it('does not depend on the order the services come in', () => {
    const one = mergeOpenApi([
      { service: 'catalog', document: structuredClone(a) },
      { service: 'kb-worker', document: structuredClone(b) },
    ]);
    const other = mergeOpenApi([
      { service: 'kb-worker', document: structuredClone(b) },
      { service: 'catalog', document: structuredClone(a) },
    ]);
    expect(Object.keys(other.components!.schemas!).sort()).toEqual(Object.keys(one.components!.schemas!).sort());
    expect((other.paths!['/a'] as { get: Op }).get).toEqual((one.paths!['/a'] as { get: Op }).get);
  });

  it("replaces the services' own health with the gateway's routes and declares every tag used, once", () => {
    const merged = mergeOpenApi([
      { service: 'catalog', document: a },
      { service: 'kb-worker', document: b },
    ]);
    const health = (merged.paths!['/actuator/health'] as { get: { operationId: string; security: unknown[] } }).get;
    expect(health.operationId).toBe('gateway_health_platform');
    expect(health.security).toEqual([]);
    expect(merged.paths!['/actuator/health/{service}']).toBeDefined();
    expect(merged.tags!.map((t) => t.name).sort()).toEqual(['docs', 'health', 'items', 'kb']);
    expect(merged.tags!.every((t) => t.description)).toBe(true);
  });

  it('refuses two operations with one id instead of renaming one of them', () => {
    const clash = doc('kb-worker', { '/c': { get: { operationId: 'catalog_items_list', responses: {} } } }, {}, []);
    expect(() =>
      mergeOpenApi([
        { service: 'catalog', document: a },
        { service: 'kb-worker', document: clash },
      ]),
    ).toThrow(/operationId catalog_items_list/);
  });
});
