import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Registry } from 'prom-client';
import { SeriesCache, counter, enableMetrics, labelProblems, methodLabel, metricsRegistry, registryLabelProblems } from './metrics.js';
import { addMetricsSource, metricsPortOf, startMetricsServer } from './metrics.server.js';

describe('the label rule', () => {
  it('passes bounded words: statuses, outcomes, route and subject templates', () => {
    for (const [name, value] of [
      ['status', '202'],
      ['outcome', 'dead_letter'],
      ['route', '/v1/executions/:id'],
      ['subject', 'account.keys.verify'],
      ['queue', 'RUN_WORK'],
      ['le', '0.025'],
    ])
      expect(labelProblems(name, value)).toEqual([]);
  });

  it('names ids, tenants, keys, addresses and free text', () => {
    expect(labelProblems('route', '/v1/executions/0193f4a2-7c1e-7d3b-9a4f-2b6c8d0e1f3a')).toContainEqual(expect.stringContaining('UUID'));
    expect(labelProblems('subject', 'run.work.123456')).toEqual([expect.stringContaining('digits')]);
    expect(labelProblems('to', 'ops@example.com')).toEqual([expect.stringContaining('e-mail')]);
    expect(labelProblems('reason', 'the run did not start')).toEqual([expect.stringContaining('whitespace')]);
    expect(labelProblems('credential', 'sv_live_abc')).toEqual([expect.stringContaining('API key')]);
    for (const name of ['tenant_id', 'tenant', 'workflow_id', 'request_id', 'id', 'user'])
      expect(labelProblems(name, 'x')).toEqual([expect.stringContaining('names an identity')]);
  });

  it('finds a bad label in a registry', async () => {
    const registry = new Registry();
    new (await import('prom-client')).Counter({ name: 'bad_total', help: 'x', labelNames: ['tenant_id'], registers: [registry] }).inc({ tenant_id: 'a' });
    expect(await registryLabelProblems(registry)).toEqual(["bad_total: label name 'tenant_id' names an identity"]);
  });
});

describe('label helpers', () => {
  it('folds made-up methods into OTHER', () => {
    expect(methodLabel('GET')).toBe('GET');
    expect(methodLabel('PROPFIND')).toBe('OTHER');
    expect(methodLabel(undefined)).toBe('OTHER');
  });

  it('caches children, and folds values past the limit into `other` without growing', () => {
    const made: string[][] = [];
    const cache = new SeriesCache((values) => {
      made.push(values);
      return values.join('/');
    }, 2);
    expect(cache.get('a', '1')).toBe('a/1');
    expect(cache.get('a', '1')).toBe('a/1');
    expect(cache.get('b', '1')).toBe('b/1');
    expect(cache.get('c', '1')).toBe('other/other');
    expect(cache.get('d', '1')).toBe('other/other');
    expect(made).toEqual([
      ['a', '1'],
      ['b', '1'],
      ['other', 'other'],
    ]);
  });
});

describe('the metrics server', () => {
  let server: Server;
  let base: string;
  const logger = { info: () => undefined, error: () => undefined };

  beforeAll(async () => {
    enableMetrics('unit', { defaults: false });
    counter({ name: 'unit_things_total', help: 'things', labelNames: ['outcome'] as const }).inc({ outcome: 'ok' }, 2);
    server = startMetricsServer({ host: '127.0.0.1', port: 0, logger });
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server.close();
  });

  it('serves the registry at /metrics, with the service label, and 404 elsewhere', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('unit_things_total{outcome="ok",service="unit"} 2');
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  it("sums a thread's series into the process's", async () => {
    const thread = new Registry();
    thread.setDefaultLabels({ service: 'unit' });
    new (await import('prom-client')).Counter({ name: 'unit_things_total', help: 'things', labelNames: ['outcome'], registers: [thread] }).inc(
      { outcome: 'ok' },
      3,
    );
    const remove = addMetricsSource(() => thread.getMetricsAsJSON());
    try {
      expect(await (await fetch(`${base}/metrics`)).text()).toContain('unit_things_total{outcome="ok",service="unit"} 5');
    } finally {
      remove();
    }
    expect(await metricsRegistry.metrics()).toContain('unit_things_total{outcome="ok",service="unit"} 2');
  });

  it('puts the metrics port at the public port + 1000 unless METRICS_PORT says', () => {
    expect(metricsPortOf({ METRICS_PORT: 0 }, 8105)).toBe(9105);
    expect(metricsPortOf({ METRICS_PORT: 9999 }, 8105)).toBe(9999);
  });
});
