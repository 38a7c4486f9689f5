import createOpenApiClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, operations, paths } from './schema.js';
export { PlatformClient, createClient, type ClientOptions } from './client.js';
export { PlatformApiError, PlatformConnectionError, RunWaitTimeoutError, type ErrorDetail } from './errors.js';
export { Paginated, type ListOptions, type Page } from './pagination.js';
export type { CallOptions, FetchLike, ResponseInfo, ResponseLike, RetryPolicy } from './transport.js';
export type { ExecutionFilters, LogFilters, StartOptions, WaitOptions } from './resources/runs.js';
export type { WorkflowFilters } from './resources/workflows.js';
export type { KeyFilters } from './resources/keys.js';
export type { TriggerFilters } from './resources/triggers.js';
export type { DeliveryFilters, WebhookFilters } from './resources/webhooks.js';
export * from './types.js';

/** The generated openapi-fetch client alone: every route typed, answers as `{ data, error, response }`. */
export type TypedApi = Client<paths>;

/** The openapi-fetch client alone, authenticated with an API key (see `createClient` for the SDK). */
export function createPlatformClient(baseUrl: string, apiKey: string, options: { headers?: Record<string, string> } = {}): TypedApi {
  return createOpenApiClient<paths>({ baseUrl, headers: { 'X-API-Key': apiKey, ...options.headers } });
}
