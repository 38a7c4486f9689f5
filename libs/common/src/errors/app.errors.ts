import type { FieldError } from './error-body.js';

/**
 * An error a feature raises on purpose: a stable code for logs and clients, the HTTP status it
 * maps to, and a message safe to show. Features list their codes in `<feature>.errors.ts`.
 */
export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: FieldError[],
  ) {
    super(message);
    this.name = 'AppError';
  }

  /** The HTTP status, under the name Nest's HttpException uses. */
  getStatus(): number {
    return this.status;
  }
}

export class ValidationFailedError extends AppError {
  constructor(details: FieldError[]) {
    super('validation_failed', 400, `Validation failed: ${details.map((d) => `${d.field} ${d.message}`).join('; ')}`.slice(0, 1000), details);
  }
}

export class NotFoundError extends AppError {
  constructor(resource: string) {
    super('not_found', 404, `${resource} not found`);
  }
}

export class ConflictError extends AppError {
  constructor(code: string, message: string) {
    super(code, 409, message);
  }
}

/** 429: a limit or quota was reached; the error filter sends `Retry-After` (whole seconds, at least 1). */
export class TooManyRequestsError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', 429, message);
  }
}
