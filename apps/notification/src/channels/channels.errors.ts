import { AppError, NotFoundError, ValidationFailedError } from '@platform/common';

/** The channel feature's errors. None carries a secret. */
export const ChannelErrors = {
  /** Also another tenant's or customer's channel: indistinguishable from an unknown id. */
  notFound: () => new NotFoundError('Channel'),
  invalid: (field: string, message: string) => new ValidationFailedError([{ field, message }]),
  disabled: () => new AppError('channel_disabled', 400, 'The channel is disabled'),
};
