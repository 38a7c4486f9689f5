import type { Request } from 'express';
import { readUnparsedBody } from '@platform/service';
import { WebhookErrors } from './webhooks.errors.js';

/**
 * The body exactly as sent: JSON bodies were read by the service's JSON parser, which keeps the
 * bytes (`rawBody`); any other body is still unread and is read here, up to `limit` bytes.
 */
export async function readRawBody(req: Request, limit: number): Promise<Buffer> {
  const kept = (req as Request & { rawBody?: Buffer }).rawBody;
  if (kept) return kept;
  if (req.readableEnded || (req as Request & { _body?: boolean })._body) return Buffer.alloc(0);
  return readUnparsedBody(req, limit, limit, () => WebhookErrors.tooLarge(limit));
}
