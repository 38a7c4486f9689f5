import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';

export type PlatformClient = Client<paths>;

/**
 * A typed client of the platform through its gateway, authenticated with an API key: paths,
 * parameters, bodies and answers are checked by the compiler against the merged OpenAPI
 * description (`src/schema.ts`).
 */
export function createPlatformClient(baseUrl: string, apiKey: string, options: { headers?: Record<string, string> } = {}): PlatformClient {
  return createClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey, ...options.headers } });
}
