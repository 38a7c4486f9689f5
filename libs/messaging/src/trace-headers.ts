import { headers, type MsgHdrs } from '@nats-io/transport-node';
import { extractTraceContext, injectTraceContext, tracingEnabled, type traceContext } from '@platform/common';

type Context = ReturnType<typeof traceContext.active>;

/**
 * The trace context travels in NATS headers (`traceparent`, `tracestate`), on requests, events and
 * JetStream work items alike, so the handler or worker continues the caller's trace. Only when
 * tracing is on: otherwise no headers are made.
 */
export function withTraceHeaders(hdrs?: MsgHdrs): MsgHdrs | undefined {
  if (!tracingEnabled()) return hdrs;
  const carrier: Record<string, string> = {};
  injectTraceContext(carrier);
  const keys = Object.keys(carrier);
  if (!keys.length) return hdrs;
  const out = hdrs ?? headers();
  for (const key of keys) out.set(key, carrier[key]);
  return out;
}

const getter = {
  keys: (carrier: MsgHdrs | undefined) => (carrier ? carrier.keys() : []),
  get: (carrier: MsgHdrs | undefined, key: string) => carrier?.get(key) || undefined,
};

/** The context a message's headers carry (the active one when none). */
export function traceContextOf(hdrs: MsgHdrs | undefined): Context {
  return extractTraceContext(hdrs, getter);
}
