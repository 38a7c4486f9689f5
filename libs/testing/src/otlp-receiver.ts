import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP receiver sees it (OTLP/JSON: ids in hex). */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, unknown>;
}

/** Any other request the receiver got (it doubles as a webhook stand-in). */
export interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface OtlpReceiver {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT: the exporters post to `<url>/v1/traces`. */
  url: string;
  spans: ReceivedSpan[];
  requests: ReceivedRequest[];
  /** How many export requests arrived (and their bytes; `protobuf` of them in protobuf), for the benchmark's report. */
  exports: { count: number; bytes: number; protobuf: number };
  stop(): Promise<void>;
}

interface AnyValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
interface KeyValue {
  key: string;
  value?: AnyValue;
}
interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes?: KeyValue[] }[] }[];
  }[];
}

const valueOf = (value: AnyValue | undefined): unknown => value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map((kv) => [kv.key, valueOf(kv.value)]));

/**
 * A minimal OTLP/HTTP receiver for traces: keeps every span of an OTLP/JSON export with its service
 * name (a test that reads spans starts the services with OTEL_EXPORTER_OTLP_PROTOCOL=http/json).
 * Protobuf exports, the services' default, are counted but not decoded. `keepSpans: false` only
 * counts (benchmarks).
 * Other paths answer 200 and are recorded, so the same server can stand in for a webhook.
 */
export async function startOtlpReceiver(options: { keepSpans?: boolean } = {}): Promise<OtlpReceiver> {
  const keep = options.keepSpans ?? true;
  const spans: ReceivedSpan[] = [];
  const requests: ReceivedRequest[] = [];
  const exports = { count: 0, bytes: 0, protobuf: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST' && req.url === '/v1/traces') {
        exports.count++;
        exports.bytes += body.length;
        if (req.headers['content-type'] === 'application/x-protobuf') {
          // An empty ExportTraceServiceResponse: all accepted.
          exports.protobuf++;
          res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
          return;
        }
        if (keep) {
          try {
            const parsed = JSON.parse(body.toString('utf8')) as ExportRequest;
            for (const resourceSpans of parsed.resourceSpans ?? []) {
              const name = attributesOf(resourceSpans.resource?.attributes)['service.name'];
              const service = typeof name === 'string' ? name : '';
              for (const scope of resourceSpans.scopeSpans ?? []) {
                for (const span of scope.spans ?? []) {
                  spans.push({
                    service,
                    traceId: span.traceId,
                    spanId: span.spanId,
                    parentSpanId: span.parentSpanId || undefined,
                    name: span.name,
                    kind: span.kind,
                    attributes: attributesOf(span.attributes),
                  });
                }
              }
            }
          } catch {
            res.writeHead(400).end();
            return;
          }
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      requests.push({ path: req.url ?? '/', headers: req.headers, body: body.toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    requests,
    exports,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
