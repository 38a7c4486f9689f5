import {
  context,
  trace,
  TraceFlags,
  type Context,
  type Span,
  type SpanOptions,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';

/**
 * The span a new span under `parent` would be, when that is already decided: under a parent-based
 * sampler, a parent that is not sampled makes every span below it a non-recording one. The SDK
 * still pays for that span in full (an id drawn, the sampler asked, its own span metrics, a span
 * object and a context made), and so does every query, event and request of the request below it:
 * with traces sampled at 10 %, the nine requests in ten nobody keeps cost most of what a kept one
 * does. Here they get the parent itself, which already is a non-recording span carrying the trace
 * (its `traceparent`, flags 00, is what goes on to the next service, so that service drops it too).
 */
export function unsampledParent(parent: Context): Span | undefined {
  const span = trace.getSpan(parent);
  if (span === undefined || span.isRecording()) return undefined;
  const spanContext = span.spanContext();
  return (spanContext.traceFlags & TraceFlags.SAMPLED) === 0 && trace.isSpanContextValid(spanContext) ? span : undefined;
}

/** `parent` with `span` active; `parent` itself when the span is its own (an unsampled parent's). */
export function withSpan(parent: Context, span: Span): Context {
  return trace.getSpan(parent) === span ? parent : trace.setSpan(parent, span);
}

/** A tracer that answers a span under an unsampled parent with the parent, and asks the SDK otherwise. */
class UnsampledParentTracer implements Tracer {
  constructor(private readonly sdk: Tracer) {}

  startSpan(name: string, options?: SpanOptions, parent: Context = context.active()): Span {
    return (options?.root ? undefined : unsampledParent(parent)) ?? this.sdk.startSpan(name, options, parent);
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : undefined;
    const parent = rest.length > 2 ? (rest[1] as Context) : context.active();
    const span = this.startSpan(name, options, parent);
    return context.with(withSpan(parent, span), () => fn(span)) as ReturnType<F>;
  }
}

/**
 * The provider our layers and the instrumentations get, in front of the SDK's, when the sampler
 * is parent-based (the default, and any `parentbased_*`). With a sampler that decides per span
 * (`always_on`, `traceidratio`), a child of an unsampled parent may be kept, so there it is not used.
 */
export class UnsampledParentTracerProvider implements TracerProvider {
  constructor(private readonly sdk: TracerProvider) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    return new UnsampledParentTracer(this.sdk.getTracer(name, version, options));
  }
}
