import type { IncomingMessage, ServerResponse } from 'node:http';
import { runInRequestScope } from '../context/request-context.js';
import { nameRequest, type RequestWithId } from '../http/request-id.js';
import { SpanKind, SpanStatusCode, extractTraceContext, startSpan } from './tracing.js';

/**
 * With tracing on, in place of requestIdMiddleware: names the request as it does, and opens a
 * server span per request, continuing the caller's trace (`traceparent`), ended when the response
 * closes. Named `<method> <route template>` once the router has matched one (Express's
 * `req.route`), so names stay few; otherwise by the method alone. The request context and the
 * span's context are entered in one scope: a second scope nested in the first cost every traced
 * request about as much again as the span itself.
 */
export function httpServerSpans(req: RequestWithId, res: ServerResponse, next: () => void): void {
  const method = req.method ?? 'GET';
  const path = (req.url ?? '/').split('?')[0];
  const { span, context } = startSpan(method, SpanKind.SERVER, { 'http.request.method': method, 'url.path': path }, extractTraceContext(req.headers));
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
  runInRequestScope({ requestId: nameRequest(req, res) }, context, next);
}
