import type { IncomingMessage, ServerResponse } from 'node:http';
import { SpanKind, SpanStatusCode, extractTraceContext, startSpan, traceContext } from './tracing.js';

/**
 * A server span per HTTP request, continuing the caller's trace (`traceparent`), ended when the
 * response closes. Named `<method> <route template>` once the router has matched one (Express's
 * `req.route`), so names stay few; otherwise by the method alone. Mounted only when tracing is on.
 */
export function httpServerSpans(req: IncomingMessage, res: ServerResponse, next: () => void): void {
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
  traceContext.with(context, next);
}
