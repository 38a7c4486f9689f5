/** One problem with one field of a request, as the platform reports it in `details`. */
export interface ErrorDetail {
  field: string;
  message: string;
}

/**
 * An answer of the platform that is not a success: the status, and the error body's `code`
 * (stable, to branch on), `message` (for people), `request_id` (to quote when asking about it)
 * and `details` (one entry per field problem).
 */
export class PlatformApiError extends Error {
  override readonly name = 'PlatformApiError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | undefined;
  readonly details: ErrorDetail[] | undefined;
  /** Seconds the platform asked to wait (`Retry-After`), when it said. */
  readonly retryAfter: number | undefined;
  readonly method: string;
  readonly path: string;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    requestId?: string;
    details?: ErrorDetail[];
    retryAfter?: number;
    method: string;
    path: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    this.retryAfter = init.retryAfter;
    this.method = init.method;
    this.path = init.path;
  }

  /** The body's field name, for code that logs errors as the platform shapes them. */
  get request_id(): string | undefined {
    return this.requestId;
  }
}

/** The platform could not be reached at all (connection refused, DNS, reset), after any retries. */
export class PlatformConnectionError extends Error {
  override readonly name = 'PlatformConnectionError';
  constructor(
    message: string,
    readonly method: string,
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `runs.wait` gave up before the run reached a final status; the run itself goes on. */
export class RunWaitTimeoutError extends Error {
  override readonly name = 'RunWaitTimeoutError';
  constructor(
    readonly runId: string,
    readonly timeoutMs: number,
    readonly lastStatus: string,
  ) {
    super(`run ${runId} is still ${lastStatus} after ${timeoutMs} ms`);
  }
}
