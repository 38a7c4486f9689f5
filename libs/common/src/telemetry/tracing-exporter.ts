import type { SpanExporter } from '@opentelemetry/sdk-trace-node';
import { ConfigError } from '../config/config.loader.js';

/**
 * OTEL_EXPORTER_OTLP_TRACES_PROTOCOL (or OTEL_EXPORTER_OTLP_PROTOCOL): how spans travel to the
 * collector. `http/protobuf` is the OpenTelemetry specification's default and ours: its bodies are
 * about a third of JSON's and a little cheaper to write (both measured per span,
 * docs/operations.md), which every process pays for every span kept. `http/json` remains for a
 * receiver that reads only JSON. Both go to `<endpoint>/v1/traces`, port 4318 on a collector.
 * `grpc` is not offered (a collector takes both HTTP forms): it is refused with that advice
 * rather than quietly sent as something else.
 */
export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json'] as const;

export type OtlpProtocol = (typeof OTLP_PROTOCOLS)[number];

/** The protocol the environment asks for; a ConfigError naming the bad value otherwise. */
export function otlpTracesProtocol(env: NodeJS.ProcessEnv = process.env): OtlpProtocol {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim();
  const variable = traces ? 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL' : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = traces || env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() || 'http/protobuf';
  if ((OTLP_PROTOCOLS as readonly string[]).includes(value)) return value as OtlpProtocol;
  const advice = value === 'grpc' ? '; grpc is not supported: every OpenTelemetry Collector also takes http/protobuf, on port 4318' : '';
  throw new ConfigError([`${variable}: got '${value}'; one of ${OTLP_PROTOCOLS.join(', ')}${advice}`]);
}

/** The OTLP exporter for a protocol; its module is loaded only then (tracing off loads none). */
export async function otlpTraceExporter(protocol: OtlpProtocol): Promise<SpanExporter> {
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}
