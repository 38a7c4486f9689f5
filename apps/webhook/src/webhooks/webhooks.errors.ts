import { AppError, NotFoundError } from '@platform/common';

/** The webhook feature's errors. None carries a secret. */
export const WebhookErrors = {
  /** Also the answer for a disabled webhook on the receiving route: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Webhook'),
  deliveryNotFound: () => new NotFoundError('Delivery'),
  unauthorized: () => new AppError('invalid_signature', 401, 'Missing or invalid webhook signature or token'),
  tooLarge: (limit: number) => new AppError('payload_too_large', 413, `The body is larger than ${limit} bytes`),
  notReplayable: () => new AppError('not_replayable', 409, 'Only accepted deliveries can be replayed'),
};
