import type { Request } from 'express';
import { AppError, assertStorableText } from '@platform/common';
import { bodyNotObject, readUnparsedBody } from '@platform/service';

const FORM_LIMIT_BYTES = 64 * 1024;

/**
 * The submitted fields: a JSON body was parsed by the service's JSON parser already; an HTML
 * form's urlencoded body is still unread and is read here, up to 64 KiB (a larger one is read to
 * its end, up to `bodyLimit` more, and refused; see readUnparsedBody).
 */
export async function readFormBody(req: Request, bodyLimit: number): Promise<Record<string, unknown>> {
  if ((req as Request & { rawBody?: Buffer }).rawBody) {
    const body: unknown = req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw bodyNotObject();
    return body as Record<string, unknown>;
  }
  const raw = await readUnparsedBody(
    req,
    FORM_LIMIT_BYTES,
    bodyLimit,
    () => new AppError('payload_too_large', 413, `A form submission is at most ${FORM_LIMIT_BYTES} bytes`),
  );
  const fields = Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  // `%00` decodes to NUL, which the run's input (jsonb) cannot hold: refused like a JSON body's.
  assertStorableText(fields, 'body');
  return fields;
}

/**
 * The client's address: the gateway appends the address it was connected from to
 * X-Forwarded-For, so the last entry is the one no client can forge.
 */
export function clientAddress(req: Request): string {
  const forwarded = req.headers['x-forwarded-for'];
  const list = (Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return list.at(-1) ?? req.socket.remoteAddress ?? 'unknown';
}
