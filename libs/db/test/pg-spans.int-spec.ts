import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, context, trace, TraceFlags, type Context, type Tracer, type TracerProvider } from '@opentelemetry/api';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { RequestScopeContextManager, recordingParentsOnly } from '@platform/common';
import pg from 'pg';
import { databaseSettings } from '../src/index.js';

// The pg instrumentation as startTracing sets it up under a parent-based sampler, patched onto the
// real pg client and run against the real server: queries under a recording span are spans,
// queries under an unsampled trace's span or under none go to pg untouched.
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const tracer = provider.getTracer('pg-spans');
// The instrumentation's tracer, counting the spans it asks for: under an unsampled trace the SDK
// would make a non-recording one, exporting nothing either way, so only the count shows the
// query went to pg untouched.
let asked = 0;
const countingProvider: TracerProvider = {
  getTracer: (name, version, options) => {
    const sdk = provider.getTracer(name, version, options);
    return { startSpan: (...args: Parameters<Tracer['startSpan']>) => (asked++, sdk.startSpan(...args)), startActiveSpan: sdk.startActiveSpan.bind(sdk) };
  },
};
const instrumentation = recordingParentsOnly(new PgInstrumentation({ requireParentSpan: true }));
const pgModule = instrumentation.getModuleDefinitions().find((definition) => definition.name === 'pg')!;
const queryOfClient = (): unknown => Reflect.get(pg.Client.prototype, 'query');
const unpatchedQuery = queryOfClient();
let client: pg.Client;

const unsampled = (): Context =>
  trace.setSpanContext(ROOT_CONTEXT, { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: TraceFlags.NONE, isRemote: true });

beforeAll(async () => {
  context.setGlobalContextManager(new RequestScopeContextManager());
  instrumentation.setTracerProvider(countingProvider);
  pgModule.patch!(pg);
  client = new pg.Client({ ...databaseSettings(process.env).admin, database: 'postgres' });
  await client.connect();
});

afterAll(async () => {
  await client?.end();
  pgModule.unpatch!(pg);
  instrumentation.disable();
  context.disable();
});

describe('pg spans under a parent-based sampler (recordingParentsOnly)', () => {
  it('patches pg: a query under a recording span is a span of that trace', async () => {
    expect(queryOfClient()).not.toBe(unpatchedQuery);
    exporter.reset();
    asked = 0;
    const parent = tracer.startSpan('request');
    const { rows } = await context.with(trace.setSpan(ROOT_CONTEXT, parent), () => client.query('select 41 + 1 as answer'));
    parent.end();
    expect(rows).toEqual([{ answer: 42 }]);
    const query = exporter.getFinishedSpans().find((span) => span.name !== 'request');
    expect(query?.attributes['db.system.name'] ?? query?.attributes['db.system']).toBe('postgresql');
    expect(query?.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(query?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
    expect(asked).toBe(1);
  });

  it('sends a query under an unsampled trace, or under no span, to pg as it is: no span, same answer', async () => {
    exporter.reset();
    asked = 0;
    const underUnsampled = await context.with(unsampled(), () => client.query('select $1::int as n', [7]));
    const underNone = await client.query('select 8 as n');
    expect(underUnsampled.rows).toEqual([{ n: 7 }]);
    expect(underNone.rows).toEqual([{ n: 8 }]);
    expect(exporter.getFinishedSpans()).toEqual([]);
    expect(asked).toBe(0);
  });

  it('keeps the query callback form working under an unsampled trace', async () => {
    asked = 0;
    const rows = await context.with(
      unsampled(),
      () =>
        new Promise<unknown[]>((resolve, reject) => {
          void client.query('select 9 as n', (error: Error | null, result: pg.QueryResult) => (error ? reject(error) : resolve(result.rows)));
        }),
    );
    expect(rows).toEqual([{ n: 9 }]);
    expect(asked).toBe(0);
  });

  it('refuses an instrumentation without the method it wraps, at start-up', () => {
    expect(() => recordingParentsOnly({})).toThrow(/_getClientQueryPatch/);
  });
});
