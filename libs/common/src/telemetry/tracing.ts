import {
  context,
  propagation,
  trace,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer,
} from '@opentelemetry/api';
import { RequestScopeContextManager, SynchronousContextManager } from './context-managers.js';
import { otlpTraceExporter, otlpTracesProtocol } from './tracing-exporter.js';
import { buildTracesSampler, tracesSamplerSetting } from './tracing-sampler.js';
import { recordingParentsOnly } from './pg-spans.js';
import { UnsampledParentTracerProvider, withSpan } from './unsampled-parents.js';

/**
 * OpenTelemetry traces, off unless `OTEL_EXPORTER_OTLP_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set. Off, no SDK module is even loaded: the
 * `@opentelemetry/api` calls our layers make find no provider and cost a property read, and
 * `tracingEnabled()` lets the hot paths skip them altogether.
 *
 * Spans are made by our own layers (the HTTP edge of every process, the gateway's proxy, NATS
 * requests, events and JetStream work items in @platform/messaging), plus the undici (outbound
 * HTTP, fetch) and pg instrumentations. Our layers do it by hand because the services are ES
 * modules: the auto-instrumentations of http and express patch what `require` returns, which an
 * ES module's `import` never goes through, whereas undici reports through diagnostics channels
 * and pg is loaded by TypeORM with `require` after tracing starts.
 */
let enabled = false;
let shutdown: (() => Promise<void>) | undefined;

export interface TracingOptions {
  /** The undici instrumentation (outbound HTTP and fetch); the gateway's proxy propagates by itself. */
  undici?: boolean;
  /** The pg instrumentation (one span per query). */
  pg?: boolean;
  /**
   * `async` (the default): the active trace context follows every await and callback, kept in the
   * request context's storage. `synchronous`: it lasts only for the synchronous call made in it,
   * for a process that hands its context on explicitly (the gateway), so async hooks stay off.
   */
  context?: 'async' | 'synchronous';
}

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

export function tracingEnabled(): boolean {
  return enabled;
}

/**
 * Starts the tracer provider of this process (or worker thread) when an OTLP endpoint is set:
 * OTLP over HTTP (protobuf unless OTEL_EXPORTER_OTLP_PROTOCOL says http/json) with a batch
 * processor, W3C trace context, and the standard OTEL_* settings (OTEL_SERVICE_NAME,
 * OTEL_RESOURCE_ATTRIBUTES, OTEL_TRACES_SAMPLER(_ARG), OTEL_BSP_*, OTEL_EXPORTER_OTLP_HEADERS, …).
 * Called before the database and NATS connections are made. A bad OTEL_TRACES_SAMPLER(_ARG) or
 * protocol is a ConfigError, tracing on or off: it is found on the first start, not on the day
 * tracing is turned on.
 */
export async function startTracing(service: string, options: TracingOptions = {}): Promise<boolean> {
  const sampling = tracesSamplerSetting();
  const protocol = otlpTracesProtocol();
  if (enabled || !tracingConfigured()) return enabled;
  const [sdk, exporter, resources, instrumentation, core] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    otlpTraceExporter(protocol),
    import('@opentelemetry/resources'),
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/core'),
  ]);
  const resource = resources
    .defaultResource()
    .merge(resources.resourceFromAttributes({ 'service.name': service, 'service.namespace': 'platform' }))
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new sdk.NodeTracerProvider({
    resource,
    sampler: buildTracesSampler(sampling, sdk),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  // What NodeTracerProvider.register does, with the provider the API hands out in front of the
  // SDK's when the sampler follows the parent (see unsampled-parents.ts).
  const parentBased = sampling.name.startsWith('parentbased_');
  const registered = parentBased ? new UnsampledParentTracerProvider(provider) : provider;
  trace.setGlobalTracerProvider(registered);
  context.setGlobalContextManager((options.context === 'synchronous' ? new SynchronousContextManager() : new RequestScopeContextManager()).enable());
  propagation.setGlobalPropagator(new core.CompositePropagator({ propagators: [new core.W3CTraceContextPropagator(), new core.W3CBaggagePropagator()] }));
  tracer = registered.getTracer('@platform');
  const instrumentations = [];
  if (options.undici ?? true) {
    const { UndiciInstrumentation } = await import('@opentelemetry/instrumentation-undici');
    instrumentations.push(new UndiciInstrumentation());
  }
  if (options.pg ?? true) {
    const { PgInstrumentation } = await import('@opentelemetry/instrumentation-pg');
    const pg = new PgInstrumentation({ requireParentSpan: true });
    instrumentations.push(parentBased ? recordingParentsOnly(pg) : pg);
  }
  instrumentation.registerInstrumentations({ tracerProvider: registered, instrumentations });
  shutdown = () => provider.shutdown();
  enabled = true;
  return true;
}

/** Sends the spans still buffered; at shutdown. */
export async function stopTracing(): Promise<void> {
  await shutdown?.().catch(() => undefined);
}

// One tracer for the process, taken once: the registered provider's once tracing starts (the
// API's ProxyTracer until then). Asking the provider for it per span cost a key string and a map
// lookup each time, and going through the ProxyTracer a lookup of its delegate.
let tracer: Tracer = trace.getTracer('@platform');

/** The ids for a log line, when a span is active. */
export function currentTraceIds(): { trace_id: string; span_id: string } | undefined {
  return enabled ? traceIdsOf(context.active()) : undefined;
}

/** The ids for a log line written outside the context (a callback that was handed it). */
export function traceIdsOf(from: Context | undefined): { trace_id: string; span_id: string } | undefined {
  if (!enabled || !from) return undefined;
  const span = trace.getSpan(from);
  if (!span) return undefined;
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}

/**
 * Runs `fn` in a new span that ends when the promise `fn` returns settles (an error marks it
 * failed). `parent` is the context the span belongs to: by default the active one.
 */
export async function inSpan<T>(
  name: string,
  kind: SpanKind,
  attributes: SpanAttributes,
  fn: (span: Span) => T | Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  const span = newSpan(name, kind, attributes, parent);
  const scope = withSpan(parent, span);
  try {
    // Under an unsampled parent that is already active (a NATS request or publish within an
    // unsampled request), the span is that parent and its context the one in force: no new scope.
    return await (scope === context.active() ? fn(span) : context.with(scope, () => fn(span)));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * An outbound HTTP exchange of our own clients (node:http, which no instrumentation sees from an
 * ES module): in a client span when tracing is on, its `traceparent` sent along.
 */
export function clientHttpSpan<R extends { status: number }>(
  method: string,
  url: URL,
  headers: Record<string, string>,
  send: (headers: Record<string, string>) => Promise<R>,
): Promise<R> {
  if (!enabled) return send(headers);
  const attributes = { 'http.request.method': method, 'server.address': url.hostname, 'url.scheme': url.protocol.slice(0, -1) };
  return inSpan(method, SpanKind.CLIENT, attributes, async (span) => {
    const carrier = { ...headers };
    injectTraceContext(carrier);
    const response = await send(carrier);
    span.setAttribute('http.response.status_code', response.status);
    return response;
  });
}

/** Starts a span without making it active; the caller ends it. */
export function startSpan(name: string, kind: SpanKind, attributes: SpanAttributes, parent: Context = context.active()): { span: Span; context: Context } {
  const span = newSpan(name, kind, attributes, parent);
  return { span, context: withSpan(parent, span) };
}

/** A span's attributes, or a function that makes them: called only for a span that records. */
export type SpanAttributes = Attributes | (() => Attributes);

/**
 * The span, its attributes set once it is known to record. Handed to startSpan, they would be
 * checked and copied twice by the SDK before the sampler decides, and dropped when it says no,
 * as it does for most requests when traces are sampled. None of the samplers we allow
 * (tracing-sampler.ts) reads attributes, so deciding without them decides the same.
 */
function newSpan(name: string, kind: SpanKind, attributes: SpanAttributes, parent: Context): Span {
  const span = tracer.startSpan(name, { kind }, parent);
  if (span.isRecording()) span.setAttributes(typeof attributes === 'function' ? attributes() : attributes);
  return span;
}

/** Writes the active trace context into a carrier (`traceparent`, `tracestate`). */
export function injectTraceContext(carrier: Record<string, string>, from: Context = context.active()): void {
  propagation.inject(from, carrier);
}

/** The context a carrier's `traceparent` names (the active one when it names none). */
export function extractTraceContext<C>(carrier: C, getter?: TextMapGetter<C>): Context {
  if (getter) return propagation.extract(context.active(), carrier, getter);
  // HTTP headers (lower-case names) that carry no trace: most requests from outside. Nothing for
  // the propagators to find, so they are not asked.
  const headers = carrier as Record<string, unknown> | undefined;
  if (headers === undefined || (headers.traceparent === undefined && headers.baggage === undefined)) return context.active();
  return propagation.extract(context.active(), carrier);
}

export { SpanKind, SpanStatusCode, context as traceContext, type Span };
