import { AppError, type FieldError } from '@platform/common';
import { BusError } from './bus.errors.js';

/**
 * A callee's deliberate refusal (a 4xx answered over NATS) is the caller's answer too: a bad key
 * stays 401, a rate limit 429, a missing reference 404, with the callee's code, message and
 * details; so does a request too large to send (413, see Bus). Anything else (no answer, a timeout, a 5xx) is the caller's to report as an outage,
 * so this answers undefined for it.
 */
export function downstreamRefusal(error: unknown): AppError | undefined {
  if (!(error instanceof BusError) || (error.code !== 'remote' && error.code !== 'too_large') || !error.remote) return undefined;
  const { status, code, message } = error.remote;
  if (status < 400 || status >= 500) return undefined;
  const details = (error.remote as { details?: FieldError[] }).details;
  return new AppError(code, status, message, Array.isArray(details) ? details : undefined);
}
