import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { setImmediate as tick } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { currentRequestContext } from '../context/request-context.js';
import type { RequestWithId } from '../http/request-id.js';
import { httpServerSpans } from './http-spans.js';
import { currentTraceIds, startTracing, stopTracing } from './tracing.js';

const CALLER_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';

function exchange(headers: Record<string, string>) {
  const req = Object.assign(new EventEmitter(), { method: 'POST', url: '/v1/automations/run?x=1', headers }) as unknown as RequestWithId;
  const answered: Record<string, string> = {};
  const res = Object.assign(new EventEmitter(), {
    statusCode: 202,
    writableFinished: true,
    setHeader: (name: string, value: string) => (answered[name.toLowerCase()] = value),
  }) as unknown as ServerResponse;
  return { req, res, answered };
}

describe('httpServerSpans: the request id and the server span in one scope', () => {
  const saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;

  beforeAll(async () => {
    // Nothing listens there: spans are made as in a service, and their export fails quietly.
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
    await startTracing('http-spans-test', { undici: false, pg: false });
  });

  afterAll(async () => {
    await stopTracing();
    if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
  });

  it("names the request as requestIdMiddleware does, and continues the caller's trace across awaits", async () => {
    const { req, res, answered } = exchange({ 'x-request-id': 'req-abc', traceparent: `00-${CALLER_TRACE}-00f067aa0ba902b7-01` });
    const seen = await new Promise<{ request?: string; trace?: string }>((resolve) => {
      httpServerSpans(req, res, () => {
        void tick().then(() => resolve({ request: currentRequestContext()?.requestId, trace: currentTraceIds()?.trace_id }));
      });
    });
    expect(req.id).toBe('req-abc');
    expect(answered['x-request-id']).toBe('req-abc');
    expect(seen).toEqual({ request: 'req-abc', trace: CALLER_TRACE });
    expect(currentRequestContext()).toBeUndefined();
    expect(currentTraceIds()).toBeUndefined();
    res.emit('close');
  });

  it('makes an id and a new trace when the caller sends neither', () => {
    const { req, res, answered } = exchange({});
    let seen: { request?: string; trace?: string } = {};
    httpServerSpans(req, res, () => (seen = { request: currentRequestContext()?.requestId, trace: currentTraceIds()?.trace_id }));
    expect(seen.request).toMatch(/^[0-9a-f-]{36}$/);
    expect(answered['x-request-id']).toBe(seen.request);
    expect(seen.trace).toMatch(/^[0-9a-f]{32}$/);
    expect(seen.trace).not.toBe(CALLER_TRACE);
    expect(res.listenerCount('close')).toBe(1);
    res.emit('close');
  });

  it("under a caller's unsampled trace makes no span and sets no listener, and passes the trace on", () => {
    const { req, res, answered } = exchange({ 'x-request-id': 'req-unsampled', traceparent: `00-${CALLER_TRACE}-00f067aa0ba902b7-00` });
    let seen: { request?: string; ids?: { trace_id: string; span_id: string } } = {};
    httpServerSpans(req, res, () => (seen = { request: currentRequestContext()?.requestId, ids: currentTraceIds() }));
    expect(answered['x-request-id']).toBe('req-unsampled');
    // The caller's span is the active one: what goes on is its traceparent, flags 00.
    expect(seen).toEqual({ request: 'req-unsampled', ids: { trace_id: CALLER_TRACE, span_id: '00f067aa0ba902b7' } });
    expect(res.listenerCount('close')).toBe(0);
  });
});
