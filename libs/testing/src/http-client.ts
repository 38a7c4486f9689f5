import { Agent, fetch, type Headers } from 'undici';

/**
 * Idle connections close after 4 s whatever the server's `Keep-Alive: timeout=65` hint says: a
 * client that believes the hint reuses a connection the gateway is closing at that very moment
 * when a busy machine delays either timer ("other side closed" on a request never sent). Closing
 * well before the server does leaves no such window.
 */
const dispatcher = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiRequest {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is (for malformed-body tests). */
  body?: unknown;
  timeoutMs?: number;
}

type ResponseListener = (baseUrl: string, path: string, response: ApiResponse) => void;
const listeners = new Set<ResponseListener>();

/** Hears every answer `call` receives from now on (a SecretWatch keeps them); answers the function that stops it. */
export function observeResponses(listener: ResponseListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Calls the platform as a client would: real HTTP, JSON parsed when the answer is JSON. */
export async function call<T = unknown>(baseUrl: string, path: string, request: ApiRequest = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...(request.headers ?? {}) };
  let body: string | undefined;
  if (request.body !== undefined) {
    body = typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, {
    method: request.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    body,
    signal: AbortSignal.timeout(request.timeoutMs ?? 15_000),
    dispatcher,
  });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  const response = { status: res.status, headers: res.headers, body: parsed as T, text };
  for (const listener of listeners) listener(baseUrl, path, response);
  return response;
}
