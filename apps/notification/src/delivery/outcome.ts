/** What one attempt came to. `transient` is retried (network, timeouts, 5xx, 429, SMTP 4xx); `permanent` never is. */
export type AttemptOutcome =
  | { outcome: 'delivered'; statusCode: number | null }
  | { outcome: 'transient'; statusCode: number | null; error: string; retryAfterMs?: number }
  | { outcome: 'permanent'; statusCode: number | null; error: string };

/** `Retry-After` in seconds or as an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** The usual reading of an HTTP answer: 2xx delivered; 408, 429 and 5xx retried; other 4xx final. */
export function classifyHttp(status: number, retryAfter: string | null, detail: string): AttemptOutcome {
  if (status >= 200 && status < 300) return { outcome: 'delivered', statusCode: status };
  const error = `HTTP ${status}${detail ? `: ${detail.slice(0, 300)}` : ''}`;
  if (status === 429 || status === 408 || status >= 500) return { outcome: 'transient', statusCode: status, error, retryAfterMs: parseRetryAfter(retryAfter) };
  return { outcome: 'permanent', statusCode: status, error };
}
