import { describe, expect, it } from '@jest/globals';
import { RouteTable } from './route-table.js';

const table = new RouteTable();

describe('RouteTable', () => {
  it.each([
    ['/catalog/connectors', 'catalog', '/catalog/connectors'],
    ['/connections/123/test?x=1', 'connection', '/connections/123/test?x=1'],
    ['/run/executions', 'run', '/run/executions'],
    ['/v1/automations/run', 'run', '/v1/automations/run'],
    ['/v1/data/query', 'storage', '/v1/data/query'],
    ['/ai/generate', 'ai-runtime', '/ai/generate'],
    ['/kb/knowledge-bases/1/query', 'kb-worker', '/kb/knowledge-bases/1/query'],
    ['/api/v1/workflow/workflows?limit=5', 'run', '/api/v1/workflow/workflows?limit=5'],
    ['/api/v1/workflow/data-planes/abc/api-keys', 'account', '/api/v1/workflow/data-planes/abc/api-keys'],
    ['/api/v1/workflow/run/executions?status=failed', 'run', '/run/executions?status=failed'],
    ['/api/v1/workflow/tasks/1/complete', 'task', '/tasks/1/complete'],
  ])('routes %s to %s as %s', (url, service, upstreamPath) => {
    expect(table.match(url)).toEqual({ service, upstreamPath });
  });

  it.each(['/', '/runs', '/catalogue', '/api/v1/workflow', '/api/v1/workflow/nothing', '/v1/other', '/actuator/health'])('matches nothing for %s', (url) => {
    expect(table.match(url)).toBeUndefined();
  });
});
