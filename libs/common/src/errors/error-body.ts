import { STATUS_CODES } from 'node:http';

export interface FieldError {
  field: string;
  message: string;
}

/** The one error shape every service and the gateway answer with (spec section 7), with a stable machine-readable `code`. */
export interface ErrorBody {
  error: string;
  /** Stable across releases, for programs: a feature's own (`workflow_disabled`) or its status's (`not_found`). */
  code: string;
  message: string;
  status: number;
  request_id?: string;
  details?: FieldError[];
}

/** The code of an error that has no more specific one: one per status. */
const STATUS_ERROR_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  411: 'length_required',
  412: 'precondition_failed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  416: 'range_not_satisfiable',
  422: 'unprocessable',
  429: 'rate_limited',
  431: 'headers_too_large',
  500: 'internal',
  501: 'not_implemented',
  502: 'upstream_failed',
  503: 'unavailable',
  504: 'upstream_timeout',
};

export function statusErrorCode(status: number): string {
  return STATUS_ERROR_CODES[status] ?? (status >= 500 ? 'internal' : 'bad_request');
}

export function errorBody(status: number, message: string, requestId?: string, details?: FieldError[], code?: string): ErrorBody {
  const body: ErrorBody = {
    error: STATUS_CODES[status] ?? 'Error',
    code: code ?? (details?.length ? 'validation_failed' : statusErrorCode(status)),
    message,
    status,
  };
  if (requestId) body.request_id = requestId;
  if (details?.length) body.details = details;
  return body;
}
