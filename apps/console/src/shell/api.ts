import { PlatformApiError, type ErrorDetail } from '@platform-sdk/client';

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * The data of a `client.api` (openapi-fetch) answer, or the same `PlatformApiError` the SDK's
 * resources throw: for the routes the SDK does not wrap (replay, assign, connection test, …).
 */
export async function ok<T>(answer: Promise<Answer<T>>): Promise<T> {
  const { data, error, response } = await answer;
  if (response.ok) return data as T;
  const body = (typeof error === 'object' && error !== null ? error : {}) as { code?: string; message?: string; request_id?: string; details?: ErrorDetail[] };
  throw new PlatformApiError({
    status: response.status,
    code: body.code ?? '',
    message: body.message ?? (response.statusText || 'The request failed'),
    requestId: body.request_id,
    details: body.details,
    method: '',
    path: new URL(response.url || 'http://x/').pathname,
  });
}
