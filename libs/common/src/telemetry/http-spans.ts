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
  // A span that records nothing (its trace not sampled) has nothing to name or end: no listener.
  if (span.isRecording()) endWithResponse(req, res, span, method);
  runInRequestScope({ requestId: nameRequest(req, res) }, context, next);
}

function endWithResponse(req: RequestWithId, res: ServerResponse, span: Span, method: string): void {
  res.once('close', () => {
    const route = (req as IncomingMessage & { route?: { path?: unknown }; baseUrl?: string }).route?.path;
    if (typeof route === 'string') {
      const template = `${(req as { baseUrl?: string }).baseUrl ?? ''}${route}`;
      span.updateName(`${method} ${template}`);
      span.setAttribute('http.route', template);
    }
    span.setAttribute('http.response.status_code', res.statusCode);
    if (res.statusCode >= 500 || !res.writableFinished) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
}
