import { describe, expect, it } from '@jest/globals';
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  InternalServerErrorException,
  NotFoundException,
  type ArgumentsHost,
  type LoggerService,
} from '@nestjs/common';
import { BusError } from '@platform/messaging';
import { firstValueFrom, isObservable, type Observable } from 'rxjs';
import { AllExceptionsFilter, resolveError } from './all-exceptions.filter.js';
import { AppError, ValidationFailedError } from '@platform/common';

type LogLevel = 'log' | 'error' | 'warn' | 'debug' | 'verbose';

class RecordingLogger implements LoggerService {
  readonly calls: { level: LogLevel; args: unknown[] }[] = [];
  log(...args: unknown[]): void {
    this.calls.push({ level: 'log', args });
  }
  error(...args: unknown[]): void {
    this.calls.push({ level: 'error', args });
  }
  warn(...args: unknown[]): void {
    this.calls.push({ level: 'warn', args });
  }
  debug(...args: unknown[]): void {
    this.calls.push({ level: 'debug', args });
  }
  verbose(...args: unknown[]): void {
    this.calls.push({ level: 'verbose', args });
  }
  at(level: LogLevel): unknown[][] {
    return this.calls.filter((c) => c.level === level).map((c) => c.args);
  }
}

class FakeResponse {
  headersSent = false;
  statusCode: number | undefined;
  body: unknown;
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  json(body: unknown): this {
    this.body = body;
    return this;
  }
}

interface FakeRequest {
  id?: string;
  method: string;
  originalUrl?: string;
}

function httpHost(request: FakeRequest, response: FakeResponse): ArgumentsHost {
  const http = { getRequest: () => request, getResponse: () => response, getNext: () => () => undefined };
  const host = { getType: () => 'http', switchToHttp: () => http, getArgs: () => [request, response], getArgByIndex: (i: number) => [request, response][i] };
  return host as unknown as ArgumentsHost;
}

function rpcHost(): ArgumentsHost {
  const host = {
    getType: () => 'rpc',
    switchToHttp: () => {
      throw new Error('an rpc host has no HTTP side');
    },
    getArgs: () => [],
    getArgByIndex: () => undefined,
  };
  return host as unknown as ArgumentsHost;
}

function handleHttp(exception: unknown, request: FakeRequest = { id: 'req-1', method: 'GET', originalUrl: '/things' }) {
  const logger = new RecordingLogger();
  const response = new FakeResponse();
  const result = new AllExceptionsFilter(logger).catch(exception, httpHost(request, response));
  return { logger, response, result };
}

function asObservable(value: unknown): Observable<unknown> {
  if (!isObservable(value)) throw new Error('expected an Observable');
  return value;
}

describe('resolveError', () => {
  it('keeps the code, status, message and details of an AppError', () => {
    const details = [{ field: 'name', message: 'is taken' }];
    expect(resolveError(new AppError('name_taken', 409, 'Name is taken', details))).toEqual({
      status: 409,
      code: 'name_taken',
      message: 'Name is taken',
      details,
    });
  });

  it("rewrites the router's 'Cannot GET /x' into 'No route for GET /x' with 404", () => {
    expect(resolveError(new NotFoundException('Cannot GET /x'))).toEqual({ status: 404, code: 'not_found', message: 'No route for GET /x' });
    expect(resolveError(new NotFoundException('Cannot DELETE /a/b?c=1')).message).toBe('No route for DELETE /a/b?c=1');
  });

  it('keeps the message of a 404 that did not come from the router', () => {
    expect(resolveError(new NotFoundException('Workflow not found'))).toEqual({ status: 404, code: 'not_found', message: 'Workflow not found' });
  });

  it('keeps the status and message of other 4xx HttpExceptions', () => {
    expect(resolveError(new ForbiddenException('Not yours'))).toEqual({ status: 403, code: 'forbidden', message: 'Not yours' });
    expect(resolveError(new ConflictException('Already exists'))).toEqual({ status: 409, code: 'conflict', message: 'Already exists' });
  });

  it("joins the message list of Nest's own validation errors", () => {
    const exception = new BadRequestException({ message: ['a must be set', 'b must be set'], error: 'Bad Request', statusCode: 400 });
    expect(resolveError(exception).message).toBe('a must be set; b must be set');
  });

  it('never exposes the message of a 500 HttpException', () => {
    expect(resolveError(new InternalServerErrorException('password=hunter2 leaked'))).toEqual({
      status: 500,
      code: 'internal',
      message: 'Internal server error',
    });
  });

  it('turns an unknown Error, a thrown string, null and undefined into a generic 500', () => {
    const generic = { status: 500, code: 'internal', message: 'Internal server error' };
    expect(resolveError(new Error('connection to 10.0.0.5 failed'))).toEqual(generic);
    expect(resolveError(new TypeError("Cannot read properties of undefined (reading 'x')"))).toEqual(generic);
    expect(resolveError('boom')).toEqual(generic);
    expect(resolveError(null)).toEqual(generic);
    expect(resolveError(undefined)).toEqual(generic);
  });

  describe('body-parser errors', () => {
    const parserError = (type: string) => Object.assign(new Error('raw parser text'), { type });

    it('maps entity.parse.failed to 400 Malformed JSON', () => {
      expect(resolveError(parserError('entity.parse.failed'))).toEqual({ status: 400, code: 'malformed_json', message: 'Malformed JSON in request body' });
    });

    it('maps entity.too.large to 413', () => {
      expect(resolveError(parserError('entity.too.large'))).toMatchObject({ status: 413, code: 'payload_too_large' });
    });

    it('maps unsupported encodings and charsets to 415', () => {
      expect(resolveError(parserError('encoding.unsupported')).status).toBe(415);
      expect(resolveError(parserError('charset.unsupported')).status).toBe(415);
    });

    it('recognises a parser error wrapped in an HttpException with the original as cause', () => {
      const wrapped = new BadRequestException('Unexpected token } in JSON', { cause: parserError('entity.parse.failed') });
      expect(resolveError(wrapped)).toEqual({ status: 400, code: 'malformed_json', message: 'Malformed JSON in request body' });
      const tooLarge = new InternalServerErrorException('raw', { cause: parserError('entity.too.large') });
      expect(resolveError(tooLarge)).toMatchObject({ status: 413, code: 'payload_too_large' });
    });

    it('treats an unknown parser type like any other error', () => {
      expect(resolveError(parserError('entity.something.else'))).toEqual({ status: 500, code: 'internal', message: 'Internal server error' });
    });
  });

  describe('BusError', () => {
    it('maps a timeout to 504', () => {
      expect(resolveError(new BusError('timeout', 'run.get', 'no reply in 5000 ms'))).toMatchObject({ status: 504, code: 'upstream_timeout' });
    });

    it('maps an unavailable service to 503', () => {
      expect(resolveError(new BusError('unavailable', 'run.get', 'no responders'))).toMatchObject({ status: 503, code: 'upstream_unavailable' });
    });

    it('passes a remote 4xx through with its code and message', () => {
      const error = new BusError('remote', 'run.get', 'remote failed', { code: 'not_found', message: 'Run not found', status: 404 });
      expect(resolveError(error)).toEqual({ status: 404, code: 'not_found', message: 'Run not found' });
    });

    it('turns a remote 5xx into 502 without the remote message', () => {
      const error = new BusError('remote', 'run.get', 'remote failed', { code: 'internal', message: 'deadlock detected in run.executions', status: 500 });
      const resolved = resolveError(error);
      expect(resolved).toMatchObject({ status: 502, code: 'upstream_failed' });
      expect(resolved.message).not.toContain('deadlock');
    });

    it('turns a remote failure without an error body into 502', () => {
      expect(resolveError(new BusError('remote', 'run.get', 'garbled reply')).status).toBe(502);
    });
  });
});

describe('AllExceptionsFilter over HTTP', () => {
  it('answers with exactly error, message, status and the request id', () => {
    const { response } = handleHttp(new ForbiddenException('Not yours'), { id: 'req-42', method: 'GET' });
    expect(response.statusCode).toBe(403);
    expect(response.body).toStrictEqual({ error: 'Forbidden', code: 'forbidden', message: 'Not yours', status: 403, request_id: 'req-42' });
  });

  it('adds details for validation errors', () => {
    const details = [{ field: 'name', message: 'must be a string' }];
    const { response } = handleHttp(new ValidationFailedError(details));
    expect(response.statusCode).toBe(400);
    expect(response.body).toStrictEqual({
      error: 'Bad Request',
      code: 'validation_failed',
      message: 'Validation failed: name must be a string',
      status: 400,
      request_id: 'req-1',
      details,
    });
  });

  it('answers a router 404 with the rewritten message', () => {
    const { response } = handleHttp(new NotFoundException('Cannot GET /x'));
    expect(response.body).toStrictEqual({ error: 'Not Found', code: 'not_found', message: 'No route for GET /x', status: 404, request_id: 'req-1' });
  });

  it('answers an unknown error with a generic 500 and logs it under the request id', () => {
    const { response, logger } = handleHttp(new Error('db exploded'), { id: 'req-7', method: 'POST', originalUrl: '/runs' });
    expect(response.statusCode).toBe(500);
    expect(response.body).toStrictEqual({
      error: 'Internal Server Error',
      code: 'internal',
      message: 'Internal server error',
      status: 500,
      request_id: 'req-7',
    });
    expect(logger.at('error')).toHaveLength(1);
    const [entry, context] = logger.at('error')[0];
    expect(entry).toMatchObject({ request_id: 'req-7', method: 'POST', url: '/runs', err: { message: 'db exploded' } });
    expect(context).toBe('ExceptionFilter');
  });

  it('does not log client errors', () => {
    const { logger } = handleHttp(new BadRequestException('bad input'));
    expect(logger.calls).toEqual([]);
  });

  it('writes nothing when the headers are already sent, but still logs a server error', () => {
    const logger = new RecordingLogger();
    const response = new FakeResponse();
    response.headersSent = true;
    new AllExceptionsFilter(logger).catch(new Error('late failure'), httpHost({ id: 'req-1', method: 'GET' }, response));
    expect(response.statusCode).toBeUndefined();
    expect(response.body).toBeUndefined();
    expect(logger.at('error')).toHaveLength(1);
  });
});

describe('AllExceptionsFilter over RPC', () => {
  it('returns an Observable that errors with code, message and status', async () => {
    const logger = new RecordingLogger();
    const result = new AllExceptionsFilter(logger).catch(new AppError('run_missing', 404, 'Run not found'), rpcHost());
    await expect(firstValueFrom(asObservable(result))).rejects.toStrictEqual({ code: 'run_missing', message: 'Run not found', status: 404 });
    expect(logger.calls).toEqual([]);
  });

  it('hides the message of a server error and logs it', async () => {
    const logger = new RecordingLogger();
    const result = new AllExceptionsFilter(logger).catch(new Error('secret stack detail'), rpcHost());
    await expect(firstValueFrom(asObservable(result))).rejects.toStrictEqual({ code: 'internal', message: 'Internal server error', status: 500 });
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0][1]).toBe('RpcHandler');
  });
});
