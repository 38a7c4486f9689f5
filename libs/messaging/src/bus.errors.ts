export type BusErrorCode =
  /** Nobody answered within the timeout. */
  | 'timeout'
  /** No service subscribes to the subject, or the connection is down. */
  | 'unavailable'
  /** The callee answered with an error. */
  | 'remote'
  /** The request is larger than the server's max_payload: never sent; `remote` carries the 413 to answer. */
  | 'too_large';

/** The error shape a handler replies with (see RpcErrorFilter). */
export interface RemoteError {
  code: string;
  message: string;
  status: number;
}

export class BusError extends Error {
  constructor(
    readonly code: BusErrorCode,
    readonly subject: string,
    message: string,
    readonly remote?: RemoteError,
  ) {
    super(message);
    this.name = 'BusError';
  }
}

export function isRemoteError(value: unknown): value is RemoteError {
  const v = value as Partial<RemoteError> | null;
  return !!v && typeof v === 'object' && typeof v.message === 'string' && typeof v.status === 'number';
}
