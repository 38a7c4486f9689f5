import { randomUUID } from 'node:crypto';
import { STATUS_CODES, createServer } from 'node:http';
import { ConfigError, createLogger, enableIoCounters, errorBody, startProcessMetrics, startTracing, stopTracing, tracesSamplerSetting } from '@platform/common';
import { loadGatewayConfig, upstreamUrls } from './config/gateway.config.js';
import { createGatewayApp } from './gateway.app.js';

let config;
let upstreams;
try {
  config = loadGatewayConfig();
  upstreams = upstreamUrls();
  tracesSamplerSetting(process.env);
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`\n[gateway] cannot start:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n\n`);
  process.exit(1);
}

if (config.PLATFORM_IO_COUNTERS) enableIoCounters();
const logger = createLogger('gateway', config.LOG_LEVEL);
// Before the app: its series exist only while metrics are on. /metrics is on the metrics port only; the public port answers 404.
const metrics = startProcessMetrics('gateway', config, config.GATEWAY_PORT, logger);
// Off without OTEL_EXPORTER_OTLP_ENDPOINT. The proxy passes the trace on itself (no undici spans), and the gateway has no database.
// The gateway hands each request's trace context to the proxy explicitly, so it needs no async
// context (and no async hooks): see SynchronousContextManager.
await startTracing('gateway', { undici: false, pg: false, context: 'synchronous' });
const { handle, close } = createGatewayApp({ config, upstreams, logger });
const server = createServer(handle);
server.listen(config.GATEWAY_PORT, config.HOST, () => {
  logger.info({ url: `http://${config.HOST}:${config.GATEWAY_PORT}` }, `gateway listening on http://${config.HOST}:${config.GATEWAY_PORT}`);
});
// Requests Node's parser refuses (headers over 16 KiB, malformed HTTP) still get the error shape.
server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
  if (!socket.writable) return socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? 431 : 400;
  const body = JSON.stringify(errorBody(status, tooLarge ? 'Request headers are larger than 16 KiB' : 'Malformed HTTP request', randomUUID()));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
});
server.on('error', (error: NodeJS.ErrnoException) => {
  process.stderr.write(`\n[gateway] cannot listen on ${config.HOST}:${config.GATEWAY_PORT}: ${error.code ?? error.message}\n\n`);
  process.exit(1);
});
// Longer than the load balancer's idle timeout, so the gateway is never the one to cut a reused connection.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

let stopping = false;
const shutdown = () => {
  if (stopping) return;
  stopping = true;
  logger.info('draining: no new connections, finishing in-flight requests');
  const timer = setTimeout(() => process.exit(1), config.SHUTDOWN_TIMEOUT_MS);
  timer.unref();
  server.close(() => {
    close();
    metrics?.close();
    void stopTracing().finally(() => {
      logger.info('stopped');
      process.exit(0);
    });
  });
  server.closeIdleConnections();
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
