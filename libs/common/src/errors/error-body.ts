import { STATUS_CODES } from 'node:http';

export interface FieldError {
  field: string;
  message: string;
}

/** The one error shape every service and the gateway answer with (spec section 7). */
export interface ErrorBody {
  error: string;
  message: string;
  status: number;
  request_id?: string;
  details?: FieldError[];
}

export function errorBody(status: number, message: string, requestId?: string, details?: FieldError[]): ErrorBody {
  const body: ErrorBody = { error: STATUS_CODES[status] ?? 'Error', message, status };
  if (requestId) body.request_id = requestId;
  if (details?.length) body.details = details;
  return body;
}
