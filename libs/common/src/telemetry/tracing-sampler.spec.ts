import { describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, SpanKind, TraceFlags, trace } from '@opentelemetry/api';
import * as sdk from '@opentelemetry/sdk-trace-node';
import { ConfigError } from '../config/config.loader.js';
import { buildTracesSampler, tracesSamplerSetting } from './tracing-sampler.js';
import { startTracing } from './tracing.js';

const { SamplingDecision } = sdk;

/** The decision for a new trace (no parent) or under a parent sampled or not. */
function decide(sampler: sdk.Sampler, parent?: 'sampled' | 'unsampled', traceId = '0af7651916cd43dd8448eb211c80319c'): sdk.SamplingDecision {
  const ctx =
    parent === undefined
      ? ROOT_CONTEXT
      : trace.setSpanContext(ROOT_CONTEXT, {
          traceId,
          spanId: 'b7ad6b7169203331',
          traceFlags: parent === 'sampled' ? TraceFlags.SAMPLED : TraceFlags.NONE,
          isRemote: true,
        });
  return sampler.shouldSample(ctx, traceId, 'span', SpanKind.SERVER, {}, []).decision;
}

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    tracesSamplerSetting(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG', () => {
  it('default to parent-based always-on: every new trace kept, a caller not sampling is followed', () => {
    expect(tracesSamplerSetting({})).toEqual({ name: 'parentbased_always_on' });
    const sampler = buildTracesSampler(tracesSamplerSetting({}), sdk);
    expect(decide(sampler)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide(sampler, 'unsampled')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('parentbased_traceidratio keeps the share of new traces the argument says, and follows a sampled caller', () => {
    expect(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.05' })).toEqual({
      name: 'parentbased_traceidratio',
      ratio: 0.05,
    });
    const none = buildTracesSampler(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }), sdk);
    expect(decide(none)).toBe(SamplingDecision.NOT_RECORD);
    // Parent-based: the caller's decision wins over the ratio, so a sampled trace stays whole.
    expect(decide(none, 'sampled')).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    const all = buildTracesSampler(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1' }), sdk);
    expect(decide(all)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    // A ratio keeps about that share of random trace ids.
    const tenth = buildTracesSampler(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }), sdk);
    const ids = Array.from({ length: 2000 }, () => new sdk.RandomIdGenerator().generateTraceId());
    const kept = ids.filter((id) => decide(tenth, undefined, id) === SamplingDecision.RECORD_AND_SAMPLED).length;
    expect(kept).toBeGreaterThan(100);
    expect(kept).toBeLessThan(300);
  });

  it('a ratio sampler without an argument keeps everything; always_off and traceidratio ignore the parent', () => {
    expect(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'traceidratio' })).toEqual({ name: 'traceidratio', ratio: 1 });
    const off = buildTracesSampler(tracesSamplerSetting({ OTEL_TRACES_SAMPLER: 'always_off' }), sdk);
    expect(decide(off, 'sampled')).toBe(SamplingDecision.NOT_RECORD);
    const ratioZero = buildTracesSampler({ name: 'traceidratio', ratio: 0 }, sdk);
    expect(decide(ratioZero, 'sampled')).toBe(SamplingDecision.NOT_RECORD);
  });

  it('refuses a sampler it does not know and an argument that is not a share, naming the setting', () => {
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'ratio' })).toEqual([
      expect.stringMatching(/^OTEL_TRACES_SAMPLER: got 'ratio'; one of always_on, .*parentbased_traceidratio/),
    ]);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toHaveLength(1);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '5%' })).toEqual([
      expect.stringMatching(/^OTEL_TRACES_SAMPLER_ARG: got '5%'; .*from 0 to 1/),
    ]);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' })).toHaveLength(1);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '-0.1' })).toHaveLength(1);
    // An argument the sampler would ignore is a mistake worth saying (the operator meant a ratio).
    expect(problemsOf({ OTEL_TRACES_SAMPLER_ARG: '0.1' })).toEqual([expect.stringMatching(/takes no argument/)]);
    expect(problemsOf({ OTEL_TRACES_SAMPLER: 'bogus', OTEL_TRACES_SAMPLER_ARG: 'x' })).toHaveLength(2);
  });

  it('stops start-up on a bad value even with tracing off', async () => {
    const saved = { ...process.env };
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    process.env.OTEL_TRACES_SAMPLER = 'sometimes';
    try {
      await expect(startTracing('test')).rejects.toBeInstanceOf(ConfigError);
    } finally {
      delete process.env.OTEL_TRACES_SAMPLER;
      Object.assign(process.env, saved);
    }
  });
});
