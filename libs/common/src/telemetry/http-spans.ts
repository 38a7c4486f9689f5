import type { IncomingMessage, ServerResponse } from 'node:http';
import { runInRequestScope } from '../context/request-context.js';
import { nameRequest, type RequestWithId } from '../http/request-id.js';
import { SpanKind, SpanStatusCode, extractTraceContext, startSpan, type Span } from './tracing.js';

/**
 * With tracing on, in place of requestIdMiddleware: names the request as it does, and opens a
 * server span per request, continuing the caller's trace (`traceparent`), ended when the response
 * closes. Named `<method> <route template>` once the router has matched one (Express's
 * `req.route`), so names stay few; otherwise by the method alone. The request context and the
 * span's context are entered in one scope: a second scope nested in the first cost every traced
 * request about as much again as the span itself. A request whose trace is not sampled gets no
 * span of its own (unsampled-parents.ts), no attributes and no listener: it passes its caller's
 * `traceparent` on and costs little more than with tracing off.
 */
export function httpServerSpans(req: RequestWithId, res: ServerResponse, next: () => void): void {
  const method = req.method ?? 'GET';
  const attributes = () => ({ 'http.request.method': method, 'url.path': (req.url ?? '/').split('?')[0] });
  const { span, context } = startSpan(method, SpanKind.SERVER, attributes, extractTraceContext(req.headers));
  endWithResponse(res, span, () => nameByRoute(req, span, method));
  runInRequestScope({ requestId: nameRequest(req, res) }, context, next);
}

/**
 * Ends a server span when its response closes, with the status (failed on a 5xx or a response cut
 * short); `beforeEnd` may name it first. A span that records nothing (its trace not sampled) has
 * nothing to name or end: it gets no listener. The gateway's spans end here too.
 */
export function endWithResponse(res: ServerResponse, span: Span, beforeEnd?: () => void): void {
  if (!span.isRecording()) return;
  res.once('close', () => {
    beforeEnd?.();
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}

/** The span named by the route template the router matched (Express's `req.route`), when it matched one. */
function nameByRoute(req: RequestWithId, span: Span, method: string): void {
  const route = (req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }).route?.path;
  if (typeof route !== 'string') return;
  const template = `${(req as { baseUrl?: string }).baseUrl ?? ''}${route}`;
  span.updateName(`${method} ${template}`);
  span.setAttribute('http.route', template);
}
