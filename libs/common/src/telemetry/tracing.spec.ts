import { describe, expect, it } from '@jest/globals';
import { clientHttpSpan, currentTraceIds, startTracing, tracingConfigured, tracingEnabled } from './tracing.js';

describe('tracing, off by default', () => {
  it('is configured by an OTLP endpoint only, and OTEL_SDK_DISABLED wins', () => {
    expect(tracingConfigured({})).toBe(false);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
    expect(tracingConfigured({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBe(false);
  });

  it('starts nothing without an endpoint: no span, no ids on log lines, headers sent as they are', async () => {
    const saved = { a: process.env.OTEL_EXPORTER_OTLP_ENDPOINT, b: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT };
    delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    delete process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
    try {
      await expect(startTracing('test')).resolves.toBe(false);
      expect(tracingEnabled()).toBe(false);
      expect(currentTraceIds()).toBeUndefined();
      const headers = { accept: 'application/json' };
      let sent: Record<string, string> | undefined;
      await clientHttpSpan('GET', new URL('http://example.test/'), headers, (h) => {
        sent = h;
        return Promise.resolve({ status: 200 });
      });
      expect(sent).toBe(headers);
    } finally {
      if (saved.a !== undefined) process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved.a;
      if (saved.b !== undefined) process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = saved.b;
    }
  });
});
