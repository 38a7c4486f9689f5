import { describe, expect, it } from '@jest/globals';
import { declaredLabelProblems, metricsRegistry } from '@platform/common';
// Loads every series the shared layers declare (db pool, NATS, JetStream, HTTP, jobs, usage outbox).
import '../index.js';
import { routeTemplate } from './http.metrics.js';

describe('service metrics', () => {
  it('labels a request by its route template, never its path', () => {
    expect(routeTemplate({ route: { path: '/v1/executions/:id' }, baseUrl: '' })).toBe('/v1/executions/:id');
    expect(routeTemplate({ route: undefined, baseUrl: '' })).toBe('unmatched');
  });

  it('declares no label that names an identity, in any shared series', () => {
    const families = metricsRegistry.getMetricsAsArray() as unknown as { name: string }[];
    expect(families.map((f) => f.name)).toEqual(
      expect.arrayContaining([
        'http_request_duration_seconds',
        'db_pool_connections',
        'db_pool_waiting',
        'nats_request_duration_seconds',
        'jetstream_consumer_pending',
        'jetstream_redeliveries_total',
        'background_job_pass_duration_seconds',
        'reconciler_repairs_total',
        'usage_outbox_backlog',
        'usage_outbox_failed',
      ]),
    );
    expect(declaredLabelProblems()).toEqual([]);
  });
});
