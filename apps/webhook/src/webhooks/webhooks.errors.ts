import { AppError, NotFoundError } from '@platform/common';

/** 1048576 → "1 MiB": limits are set in bytes but read by people. */
const size = (bytes: number) => (bytes % 1_048_576 === 0 ? `${bytes / 1_048_576} MiB` : bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`);

/** The webhook feature's errors. None carries a secret. */
export const WebhookErrors = {
  /** Also the answer for a disabled webhook on the receiving route: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Webhook'),
  deliveryNotFound: () => new NotFoundError('Delivery'),
  unauthorized: () => new AppError('invalid_signature', 401, 'Missing or invalid webhook signature or token'),
  tooLarge: (limit: number) => new AppError('payload_too_large', 413, `The body is larger than ${limit} bytes`),
  /** `setting` names what sets the limit: the run service's RUN_INPUT_LIMIT_BYTES, or a smaller NATS max_payload. */
  runInputTooLarge: (bytes: number, limit: number, setting = 'RUN_INPUT_LIMIT_BYTES') =>
    new AppError(
      'input_too_large',
      413,
      `The delivery would make a run input of ${bytes} bytes, over the ${size(limit)} run-input limit (${setting}): no run could start with it`,
    ),
  notReplayable: () => new AppError('not_replayable', 409, 'Only accepted deliveries can be replayed'),
};
