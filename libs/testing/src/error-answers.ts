import { AUTH_MESSAGES } from '@platform/auth';
import { errorBody, type ErrorBody } from '@platform/common';

/**
 * The error body a client gets, as a test expects it, built by the platform's own errorBody; the
 * test adds `request_id: expect.any(String)` (this module is also loaded outside Jest).
 */
export function errorAnswer(status: number, message: string, code?: string): ErrorBody {
  return errorBody(status, message, undefined, undefined, code);
}

/** What every route answers without a valid credential. */
export const UNAUTHORIZED_ANSWER = errorAnswer(401, AUTH_MESSAGES.unauthorized);
/** What every route answers a credential that may not do this. */
export const FORBIDDEN_ANSWER = errorAnswer(403, AUTH_MESSAGES.forbidden);
