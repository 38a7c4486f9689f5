import type { IncomingMessage, ServerResponse } from 'node:http';
import { json } from 'express';
import { bindRequestContext, findJsonDepthViolation, MAX_JSON_DEPTH } from '@platform/common';

/** Raised from body-parser's `verify` hook; the error filter answers it with a 400 naming the field. */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  readonly status = 400;

  constructor(readonly field: string | null) {
    super(`JSON nests deeper than ${MAX_JSON_DEPTH} levels${field ? ` in ${field}` : ''}`);
  }
}

/**
 * JSON bodies up to `limit` bytes, refused (400) when they nest deeper than MAX_JSON_DEPTH: the
 * raw text is scanned before it is parsed, so nothing recursive downstream ever sees such a body.
 * Any JSON value is parsed (not only objects and arrays): `null` or `5` is not malformed, and the
 * route says what it takes (a body DTO: "The body must be a JSON object"; a webhook: anything).
 * `next` keeps the request's context (request id, actor), which stream callbacks would lose.
 */
export function jsonBodyParser(limit: number) {
  const parse = json({
    limit,
    strict: false,
    type: ['application/json', 'application/*+json'],
    verify: (req, _res, buffer) => {
      // Kept for routes that must see the bytes as sent (webhook signatures are over the raw body).
      (req as IncomingMessage & { rawBody?: Buffer }).rawBody = buffer;
      const violation = findJsonDepthViolation(buffer);
      if (violation) throw new JsonTooDeepError(violation.field);
    },
  });
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    parse(req, res, bindRequestContext(next));
  };
}
