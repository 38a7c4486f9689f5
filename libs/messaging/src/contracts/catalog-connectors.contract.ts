import { IsString, MaxLength } from 'class-validator';

/**
 * The connector catalog over NATS: the connection service reads a connector's definition (built in,
 * or installed into the tenant from the marketplace) before it runs one of its operations.
 */
export const CatalogConnectorSubjects = {
  /** Request: one connector definition visible to the caller's tenant. */
  connectorsGet: 'catalog.connectors.get',
} as const;

export type ConnectorAuthType = 'none' | 'api_key' | 'basic' | 'bearer' | 'oauth2_code' | 'oauth2_client_credentials';

/** One way a connector authenticates; OAuth schemes carry the provider's endpoints. */
export interface ConnectorAuthScheme {
  type: ConnectorAuthType;
  /** api_key: where the key goes and under which name. */
  in?: 'header' | 'query';
  name?: string;
  /** api_key / bearer: put before the value (`Bearer `, `token `). */
  prefix?: string;
  authorization_url?: string;
  token_url?: string;
  scopes?: string[];
}

/** How an operation becomes an HTTP request: strings may hold `{{input.x}}` and `{{settings.x}}` placeholders. */
export interface ConnectorHttp {
  method: string;
  path: string;
  query?: Record<string, unknown> | string;
  headers?: Record<string, unknown> | string;
  body?: unknown;
  body_type?: 'json' | 'form';
}

export interface ConnectorOperation {
  id: string;
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
  http?: ConnectorHttp;
  pagination?: Record<string, unknown>;
  retryable_statuses?: number[];
  /** A 2xx answer is still a failure when this field of the body is false (Slack's `ok`). */
  success_field?: string;
  error_field?: string;
  /** The header the API reads an idempotency key from (Stripe: `Idempotency-Key`); the caller's key is sent in it. */
  idempotency_header?: string;
}

/** A declarative connector (validated against the catalog's JSON Schema for definitions). */
export interface ConnectorDefinition {
  id: string;
  name: string;
  version: string;
  description: string;
  categories: string[];
  icon: string;
  publisher: string;
  auth: ConnectorAuthScheme[];
  /** Null: every connection gives its own (`settings.base_url`). */
  base_url: string | null;
  /** The connection's non-secret settings (host, base URL override, …). */
  settings_schema: Record<string, unknown>;
  /** `http` (declarative) unless the connector needs code: `postgres`, `smtp`. */
  driver: 'http' | 'postgres' | 'smtp';
  operations: ConnectorOperation[];
  test_operation: { operation: string; input: Record<string, unknown> };
}

export class GetConnectorRequest {
  @IsString()
  @MaxLength(200)
  connectorId!: string;
}

export interface CatalogConnectorRequests {
  [CatalogConnectorSubjects.connectorsGet]: { request: GetConnectorRequest; response: ConnectorDefinition };
}
