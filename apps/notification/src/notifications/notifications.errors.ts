import { ConflictError, NotFoundError, TooManyRequestsError, ValidationFailedError } from '@platform/common';

/** The notification feature's errors. None carries a secret. */
export const NotificationErrors = {
  /** Also another tenant's or customer's notification: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Notification'),
  invalid: (field: string, message: string) => new ValidationFailedError([{ field, message }]),
  idempotencyMismatch: () => new ConflictError('idempotency_mismatch', 'This idempotency_key was used with another request'),
  rateLimited: (retryAfterSeconds: number, period: string) => new TooManyRequestsError(`Notification sending limit per ${period} reached`, retryAfterSeconds),
};
