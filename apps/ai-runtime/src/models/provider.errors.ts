import { AppError, TooManyRequestsError, ValidationFailedError } from '@platform/common';

/** A provider failed or refused: 502. The message names the provider's status, never its credentials. */
export class ProviderFailedError extends AppError {
  constructor(message: string) {
    super('provider_failed', 502, message);
  }
}

/** The provider did not answer within AI_PROVIDER_TIMEOUT_MS: 504. */
export class ProviderTimeoutError extends AppError {
  constructor(timeoutMs: number) {
    super('provider_timeout', 504, `The model provider did not answer within ${timeoutMs} ms`);
  }
}

/** The provider limited us: 429 with its own Retry-After (at least 1 s). */
export class ProviderRateLimitedError extends TooManyRequestsError {
  constructor(retryAfterSeconds: number) {
    super('The model provider is rate limiting requests; retry after the given time', retryAfterSeconds);
  }
}

export const ModelErrors = {
  unknownModel: (field: string, model: string) =>
    new ValidationFailedError([{ field, message: `unknown model ${model}: GET /ai/models lists the models configured for this tenant` }]),
  notChatModel: (field: string, model: string) => new ValidationFailedError([{ field, message: `${model} is an embedding model, not a chat model` }]),
  notEmbeddingModel: (field: string, model: string) => new ValidationFailedError([{ field, message: `${model} is not an embedding model` }]),
  blockedAddress: (detail: string) => new ProviderFailedError(`The provider's address is refused: ${detail}`),
};
