import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, type LoggerService } from '@nestjs/common';
import { RpcException } from '@nestjs/microservices';
import { throwError } from 'rxjs';
import { BusError, downstreamRefusal, isRemoteError } from '@platform/messaging';
import { AppError, TooManyRequestsError, errorBody, statusErrorCode, MAX_JSON_DEPTH, type ErrorBody, type RequestWithId } from '@platform/common';

interface ResolvedError {
  status: number;
  code: string;
  message: string;
  details?: ErrorBody['details'];
}

/** body-parser reports its failures with a `type`; each gets a clear status and message. */
const BODY_PARSER: Record<string, { status: number; code: string; message: string }> = {
  'entity.parse.failed': { status: 400, code: 'malformed_json', message: 'Malformed JSON in request body' },
  'entity.too.large': { status: 413, code: 'payload_too_large', message: 'Request body is larger than the limit' },
  'encoding.unsupported': { status: 415, code: 'unsupported_encoding', message: 'Unsupported content encoding' },
  'charset.unsupported': { status: 415, code: 'unsupported_charset', message: 'Unsupported charset' },
  'request.aborted': { status: 400, code: 'request_aborted', message: 'Request aborted by the client' },
  'entity.too.deep': { status: 400, code: 'json_too_deep', message: `JSON nests deeper than ${MAX_JSON_DEPTH} levels` },
};

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}

export function resolveError(exception: unknown): ResolvedError {
  // Checked first: Nest may hand body-parser errors over wrapped, with the original as cause.
  const parser = exception as { type?: string; field?: string | null; cause?: { type?: string; field?: string | null } } | null;
  const parserType = parser?.type ?? parser?.cause?.type;
  if (parserType && BODY_PARSER[parserType]) {
    const field = parser?.field ?? parser?.cause?.field;
    const known = BODY_PARSER[parserType];
    return field ? { ...known, details: [{ field, message: `nests deeper than ${MAX_JSON_DEPTH} levels` }] } : known;
  }
  if (exception instanceof AppError) {
    return { status: exception.status, code: exception.code, message: exception.message, details: exception.details };
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    let message = messageOf(exception);
    // The router's "Cannot GET /x" reads like a crash; say what happened.
    const route = /^Cannot (\w+) (.+)$/.exec(message);
    if (status === 404 && route) message = `No route for ${route[1]} ${route[2]}`;
    return {
      status,
      code: statusErrorCode(status),
      message: status >= 500 && status !== 501 && status !== 503 ? 'Internal server error' : message,
    };
  }
  if (exception instanceof RpcException) {
    // A message handler's deliberate error: `{ code, status, message, details? }`.
    const error = exception.getError();
    if (isRemoteError(error))
      return { status: error.status, code: error.code, message: error.message, details: (error as { details?: ErrorBody['details'] }).details };
    return { status: 500, code: 'internal', message: 'Internal server error' };
  }
  if (exception instanceof BusError) {
    if (exception.code === 'timeout') return { status: 504, code: 'upstream_timeout', message: 'A downstream service did not answer in time' };
    if (exception.code === 'unavailable') return { status: 503, code: 'upstream_unavailable', message: 'A downstream service is unavailable' };
    const refusal = downstreamRefusal(exception);
    if (refusal) return { status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details };
    return { status: 502, code: 'upstream_failed', message: 'A downstream service failed' };
  }
  return { status: 500, code: 'internal', message: 'Internal server error' };
}

/**
 * Every error leaves in the spec's shape, HTTP and message handlers alike. Messages of server
 * errors are generic (501 and 503 excepted: they are written for clients, "not implemented yet",
 * "not ready"): the stack and cause go to the log under the request id, never to clients.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly logger: LoggerService) {}

  catch(exception: unknown, host: ArgumentsHost) {
    const resolved = resolveError(exception);
    if (host.getType() === 'rpc') {
      if (resolved.status >= 500) this.logger.error(exception instanceof Error ? exception.stack : String(exception), 'RpcHandler');
      return throwError(() => ({
        code: resolved.code,
        message: resolved.message,
        status: resolved.status,
        ...(resolved.details ? { details: resolved.details } : {}),
      }));
    }
    const http = host.switchToHttp();
    const request = http.getRequest<RequestWithId & { method: string; originalUrl?: string }>();
    const response = http.getResponse<import('express').Response>();
    if (resolved.status >= 500) {
      this.logger.error(
        {
          msg: 'request failed',
          request_id: request.id,
          method: request.method,
          url: request.originalUrl,
          err: exception instanceof Error ? { message: exception.message, stack: exception.stack } : exception,
        },
        'ExceptionFilter',
      );
    }
    if (response.headersSent) return;
    if (exception instanceof TooManyRequestsError) response.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfterSeconds))));
    response.status(resolved.status).json(errorBody(resolved.status, resolved.message, request.id, resolved.details, resolved.code));
    return undefined;
  }
}
