/** Schema helpers for the built-in definitions: they are data, these only keep them short. */
export const str = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'string', description, ...extra });
export const int = (description: string, extra: Record<string, unknown> = {}) => ({ type: 'integer', description, ...extra });
export const obj = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', additionalProperties: false, properties, required });
export const anyObject = { type: 'object' };

/**
 * Every HTTP connector's connection may point at another base URL: GitHub Enterprise Server, an
 * OpenAI-compatible server, a proxy, or a stand-in server in tests.
 */
export const BASE_URL_SETTINGS = obj({ base_url: str('Overrides the connector base URL', { format: 'uri', pattern: '^https?://' }) });

/** Rate limiting and passing outages, worth another try (the remote `Retry-After` is honoured). */
export const DEFAULT_RETRYABLE = [429, 502, 503, 504];
