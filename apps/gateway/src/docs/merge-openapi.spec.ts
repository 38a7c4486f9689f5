import { describe, expect, it } from '@jest/globals';
import { mergeOpenApi, type OpenApiDocument } from './merge-openapi.js';

const doc = (paths: Record<string, unknown>, schemas: Record<string, unknown>): OpenApiDocument => ({
  openapi: '3.0.0',
  info: { title: 't', version: '1' },
  paths,
  components: { schemas, securitySchemes: { api_key: { type: 'apiKey', in: 'header', name: 'X-API-Key' } } },
  tags: [{ name: 'health' }],
});

describe('mergeOpenApi', () => {
  it('keeps every path, shares identical components and renames clashing ones with their references', () => {
    const a = doc({ '/a': { get: { operationId: 'Health_health', responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } } } }, { Item: { type: 'string' }, Same: { type: 'integer' } });
    const b = doc({ '/b': { get: { operationId: 'Health_health', responses: { 200: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Item' } } } } } } } }, { Item: { type: 'number' }, Same: { type: 'integer' } });
    const merged = mergeOpenApi([{ service: 'catalog', document: a }, { service: 'kb-worker', document: b }]);
    expect(Object.keys(merged.paths!)).toEqual(['/a', '/b']);
    expect(merged.components!.schemas).toEqual({ Item: { type: 'string' }, Same: { type: 'integer' }, KbWorkerItem: { type: 'number' } });
    const bOp = (merged.paths!['/b'] as { get: { operationId: string; responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } }).get;
    expect(bOp.responses[200].content['application/json'].schema.$ref).toBe('#/components/schemas/KbWorkerItem');
    expect(bOp.operationId).toBe('KbWorker_Health_health');
    expect(merged.tags).toEqual([{ name: 'health' }]);
  });
});
