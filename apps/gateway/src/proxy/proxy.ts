import { Agent, type IncomingMessage, type ServerResponse } from 'node:http';
import httpProxy from 'http-proxy';
import type { Logger } from 'pino';
import { errorBody, type ServiceName } from '@platform/common';
import type { RouteMatch } from '../routing/route-table.js';

export interface ProxyOptions {
  upstreams: Record<ServiceName, URL>;
  timeoutMs: number;
  bodyLimit: number;
  uploadLimit: number;
  logger: Logger;
}

export type GatewayRequest = IncomingMessage & { id: string; originalUrl?: string };

const UPLOAD_PATHS = /^\/storage\/files\/upload(\?|$)/;
const REFUSED = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE', 'EAI_AGAIN']);

function sendError(res: ServerResponse, status: number, message: string, requestId: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify(errorBody(status, message, requestId));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
  res.end(body);
}

/**
 * Streams requests to services and their answers back without buffering either (uploads pass
 * through as they arrive). Failures become the error shape: a service that refuses the
 * connection is 502 at once, one that does not answer in time is 504.
 */
export function createProxy(options: ProxyOptions) {
  // Keep-alive to services: a new TCP connection per request would cost more than the proxying.
  const agent = new Agent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 64, keepAliveMsecs: 10_000 });
  const proxy = httpProxy.createProxyServer({ agent, xfwd: true, ws: false, changeOrigin: false });
  const timedOut = new WeakSet<IncomingMessage>();

  proxy.on('proxyReq', (proxyReq, req) => {
    proxyReq.setTimeout(options.timeoutMs, () => {
      timedOut.add(req);
      proxyReq.destroy(new Error('upstream timeout'));
    });
  });

  // A service that dies mid-answer (or cuts a download it found corrupt) must not leave the client
  // waiting for bytes that will never come: end the client's connection too.
  proxy.on('proxyRes', (proxyRes, _req, res) => {
    proxyRes.once('aborted', () => (res as ServerResponse).destroy());
    proxyRes.once('error', () => (res as ServerResponse).destroy());
  });

  proxy.on('error', (error, req, res) => {
    const request = req as GatewayRequest;
    const response = res as ServerResponse;
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (timedOut.has(req)) {
      options.logger.warn({ req_id: request.id, url: request.url }, 'upstream timed out');
      sendError(response, 504, 'The service did not answer in time', request.id);
    } else if (REFUSED.has(code) || code === '') {
      options.logger.warn({ req_id: request.id, url: request.url, code }, 'upstream unavailable');
      sendError(response, 502, 'The service is unavailable', request.id);
    } else {
      options.logger.error({ req_id: request.id, url: request.url, err: error.message }, 'proxy error');
      sendError(response, 502, 'The service failed to answer', request.id);
    }
  });

  return {
    forward(req: GatewayRequest, res: ServerResponse, route: RouteMatch): void {
      const limit = UPLOAD_PATHS.test(route.upstreamPath) ? options.uploadLimit : options.bodyLimit;
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > limit) {
        sendError(res, 413, `Request body is larger than the limit of ${limit} bytes`, req.id);
        req.resume();
        return;
      }
      // Set before proxying: http-proxy copies these headers; touching the upstream request once
      // the body flows would be too late.
      req.headers['x-request-id'] = req.id;
      req.url = route.upstreamPath;
      proxy.web(req, res, { target: options.upstreams[route.service] });
      if (req.headers['transfer-encoding'] !== undefined) {
        // A chunked body declares no length: count it as it streams (after the proxy has piped
        // it, so the extra listener does not start the flow early) and stop at the limit.
        let seen = 0;
        req.on('data', (chunk: Buffer) => {
          seen += chunk.length;
          if (seen > limit) {
            sendError(res, 413, `Request body is larger than the limit of ${limit} bytes`, req.id);
            req.unpipe();
            req.destroy();
          }
        });
      }
    },
    close(): void {
      proxy.close();
      agent.destroy();
    },
  };
}
