import { pino, type Logger as PinoLogger } from 'pino';
import { currentRequestContext } from '../context/request-context.js';
import { currentTraceIds } from '../telemetry/tracing.js';

/**
 * One JSON logger per process. Credentials and secret values are redacted wherever they appear
 * in a logged object, so a careless `logger.info({ req })` cannot leak them.
 */
export function createLogger(service: string, level: string): PinoLogger {
  return pino({
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Every line written while a request or message is handled names it, so one request can be
    // followed from the gateway into every service and worker it reached; with tracing on, the
    // line names its trace and span too.
    mixin: () => {
      const context = currentRequestContext();
      const ids = currentTraceIds();
      if (!ids) return context ? { request_id: context.requestId } : {};
      return context ? { request_id: context.requestId, ...ids } : ids;
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'headers.authorization',
        'headers["x-api-key"]',
        '*.password',
        '*.secret',
        '*.value',
        '*.key',
      ],
      censor: '[redacted]',
    },
  });
}
