import { SecretRedactor } from '@platform/common';
import type { ConnectorAuthType } from '@platform/messaging';

export type ConnectionStatus = 'active' | 'pending_authorization' | 'needs_reauth';

export interface ConnectionRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  connector_id: string;
  auth_type: ConnectorAuthType;
  auth_settings: AuthSettings;
  settings: Record<string, unknown>;
  secret_iv: Buffer | null;
  secret_ciphertext: Buffer | null;
  secret_tag: Buffer | null;
  status: ConnectionStatus;
  status_reason: string | null;
  token_expires_at: Date | null;
  token_refreshed_at: Date | null;
  token_refresh_count: number;
  last_tested_at: Date | null;
  last_test_ok: boolean | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The non-secret half of a connection's auth (stored in the clear, shown in responses). */
export interface AuthSettings {
  in?: 'header' | 'query';
  name?: string;
  prefix?: string;
  client_id?: string;
  authorization_url?: string;
  token_url?: string;
  scopes?: string[];
  /** The provider's issuer identifier, checked against the `iss` of its authorization responses (RFC 9207). */
  issuer?: string;
}

/** The secret half: sealed, never returned, logged or passed out of the service. */
export interface Credentials {
  key?: string;
  username?: string;
  password?: string;
  token?: string;
  client_secret?: string;
  access_token?: string;
  refresh_token?: string;
}

/**
 * Everything of these credentials that a remote side may echo back: each secret value, and the
 * `user:password` pair a Basic header carries (base64-encoded; the redactor matches that form).
 * The user name alone is not secret.
 */
export function credentialRedactor(credentials: Credentials): SecretRedactor {
  const { username, ...secret } = credentials;
  const pair = username !== undefined && credentials.password !== undefined ? `${username}:${credentials.password}` : undefined;
  return SecretRedactor.of(secret).with([pair]);
}

export interface ConnectionResponse {
  id: string;
  name: string;
  connector_id: string;
  customer_id: string | null;
  auth: AuthSettings & { type: ConnectorAuthType };
  /** Which credentials are set (names only). */
  credentials: string[];
  settings: Record<string, unknown>;
  status: ConnectionStatus;
  status_reason: string | null;
  token_expires_at: string | null;
  last_tested_at: string | null;
  last_test_ok: boolean | null;
  created_at: string;
  updated_at: string;
}

export function toConnectionResponse(row: ConnectionRow, credentials: Credentials): ConnectionResponse {
  return {
    id: row.id,
    name: row.name,
    connector_id: row.connector_id,
    customer_id: row.scope_id,
    auth: { type: row.auth_type, ...row.auth_settings },
    credentials: Object.keys(credentials)
      .filter((k) => credentials[k as keyof Credentials] !== undefined)
      .sort(),
    settings: row.settings,
    status: row.status,
    status_reason: row.status_reason,
    token_expires_at: row.token_expires_at?.toISOString() ?? null,
    last_tested_at: row.last_tested_at?.toISOString() ?? null,
    last_test_ok: row.last_test_ok,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
