import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ConfigError } from '../config/config.loader.js';
import { otlpTraceExporter, otlpTracesProtocol, type OtlpProtocol } from './tracing-exporter.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    otlpTracesProtocol(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('OTEL_EXPORTER_OTLP_PROTOCOL', () => {
  it("defaults to http/protobuf, the specification's default; the traces-specific variable wins", () => {
    expect(otlpTracesProtocol({})).toBe('http/protobuf');
    expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(otlpTracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: ' ', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: '' })).toBe('http/protobuf');
  });

  it('refuses grpc and anything else by name, saying what it takes', () => {
    expect(problemsOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toEqual([
      "OTEL_EXPORTER_OTLP_PROTOCOL: got 'grpc'; one of http/protobuf, http/json; grpc is not supported: every OpenTelemetry Collector also takes http/protobuf, on port 4318",
    ]);
    expect(problemsOf({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'json' })).toEqual([
      "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: got 'json'; one of http/protobuf, http/json",
    ]);
  });
});

describe('the OTLP exporter of each protocol', () => {
  const received: { path?: string; headers: IncomingHttpHeaders; body: Buffer }[] = [];
  let server: Server;
  let saved: string | undefined;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { 'content-type': String(req.headers['content-type']) }).end(req.headers['content-type'] === 'application/json' ? '{}' : '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    saved = process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
    else process.env.OTEL_EXPORTER_OTLP_ENDPOINT = saved;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** One span named `name` exported with `protocol`'s exporter; what the receiver got. */
  async function exportOne(protocol: OtlpProtocol, name: string) {
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(await otlpTraceExporter(protocol))] });
    provider.getTracer('test').startSpan(name).end();
    await provider.forceFlush();
    await provider.shutdown();
    return received.splice(0);
  }

  it('http/protobuf posts protobuf to /v1/traces, the span name in it', async () => {
    const [request, ...more] = await exportOne('http/protobuf', 'span-sent-as-protobuf');
    expect(more).toEqual([]);
    expect(request.path).toBe('/v1/traces');
    expect(request.headers['content-type']).toBe('application/x-protobuf');
    // Protobuf writes strings as they are, so the name is in the body; JSON punctuation is not.
    expect(request.body.includes('span-sent-as-protobuf')).toBe(true);
    expect(request.body.includes('"resourceSpans"')).toBe(false);
  });

  it('http/json posts the OTLP JSON encoding', async () => {
    const [request] = await exportOne('http/json', 'span-sent-as-json');
    expect(request.headers['content-type']).toBe('application/json');
    const body = JSON.parse(request.body.toString('utf8')) as { resourceSpans: { scopeSpans: { spans: { name: string }[] }[] }[] };
    expect(body.resourceSpans[0].scopeSpans[0].spans.map((s) => s.name)).toEqual(['span-sent-as-json']);
  });
});
