import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { runInRequestContext } from '../context/request-context.js';

const VALID = /^[A-Za-z0-9._-]{1,128}$/;

/** Keeps a well-formed incoming X-Request-Id (API-CONTRACT), otherwise makes a UUID. */
export function resolveRequestId(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && VALID.test(value) ? value : randomUUID();
}

// The id travels on the request (the access log and the error filter read it).
export type RequestWithId = IncomingMessage & {
  id?: string;
};

/** Names the request and answers with its id. */
export function nameRequest(req: RequestWithId, res: ServerResponse): string {
  const id = resolveRequestId(req.headers['x-request-id']);
  req.id = id;
  res.setHeader('X-Request-Id', id);
  return id;
}

/** Names the request, answers with its id, and runs the rest of it in its request context. */
export function requestIdMiddleware(req: RequestWithId, res: ServerResponse, next: () => void): void {
  runInRequestContext({ requestId: nameRequest(req, res) }, next);
}
