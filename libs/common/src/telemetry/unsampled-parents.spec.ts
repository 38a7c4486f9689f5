import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, TraceFlags, trace, type Context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AlwaysOnSampler, BasicTracerProvider, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { UnsampledParentTracerProvider, unsampledParent } from './unsampled-parents.js';

function setup() {
  const exporter = new InMemorySpanExporter();
  const sdk = new BasicTracerProvider({
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { exporter, tracer: new UnsampledParentTracerProvider(sdk).getTracer('test') };
}

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT = '00f067aa0ba902b7';
const remote = (flags: TraceFlags): Context => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE, spanId: PARENT, traceFlags: flags, isRemote: true });

describe('UnsampledParentTracerProvider', () => {
  it('answers a span under an unsampled parent with the parent: nothing recorded, the same trace passed on unsampled', () => {
    const { exporter, tracer } = setup();
    const parent = remote(TraceFlags.NONE);
    const span = tracer.startSpan('child', {}, parent);
    expect(span).toBe(trace.getSpan(parent));
    expect(span.isRecording()).toBe(false);
    span.setAttribute('a', 1);
    span.end();
    const carrier: Record<string, string> = {};
    new W3CTraceContextPropagator().inject(trace.setSpan(parent, span), carrier, { set: (c: Record<string, string>, k: string, v: string) => (c[k] = v) });
    expect(carrier.traceparent).toBe(`00-${TRACE}-${PARENT}-00`);
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it('makes a real child under a sampled parent, and roots as the sampler decides', () => {
    const { exporter, tracer } = setup();
    const child = tracer.startSpan('child', {}, remote(TraceFlags.SAMPLED));
    expect(child.isRecording()).toBe(true);
    expect(child.spanContext().traceId).toBe(TRACE);
    expect(child.spanContext().spanId).not.toBe(PARENT);
    child.end();
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    expect(root.isRecording()).toBe(true);
    expect(root.spanContext().traceId).not.toBe(TRACE);
    root.end();
    // `root: true` starts a new trace whatever the parent.
    const fresh = tracer.startSpan('fresh', { root: true }, remote(TraceFlags.NONE));
    expect(fresh.isRecording()).toBe(true);
    fresh.end();
    expect(exporter.getFinishedSpans().map((s) => [s.name, s.parentSpanContext?.spanId])).toEqual([
      ['child', PARENT],
      ['root', undefined],
      ['fresh', undefined],
    ]);
  });

  it('startActiveSpan hands the callback the span (the parent when unsampled) and returns what it returns', () => {
    const { tracer } = setup();
    const parent = remote(TraceFlags.NONE);
    expect(tracer.startActiveSpan('x', {}, parent, (span) => (span === trace.getSpan(parent) ? 'parent' : 'other'))).toBe('parent');
    expect(tracer.startActiveSpan('y', (span) => span.isRecording())).toBe(true);
  });

  it('leaves alone what is not an unsampled parent: no span, a recording span, an invalid context', () => {
    expect(unsampledParent(ROOT_CONTEXT)).toBeUndefined();
    const { tracer } = setup();
    const recording = tracer.startSpan('r', {}, ROOT_CONTEXT);
    expect(unsampledParent(trace.setSpan(ROOT_CONTEXT, recording))).toBeUndefined();
    expect(
      unsampledParent(trace.setSpanContext(ROOT_CONTEXT, { traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: TraceFlags.NONE })),
    ).toBeUndefined();
  });
});
