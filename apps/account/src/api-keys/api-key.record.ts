/** A row of account.api_keys as the repository reads it. */
export interface ApiKeyRow {
  tenant_id: string;
  environment_id: string;
  id: string;
  name: string;
  type: 'tenant' | 'customer';
  mode: 'live' | 'test';
  customer_id: string | null;
  scopes: string[];
  prefix: string;
  status: 'active' | 'revoked' | 'expired' | 'rotated';
  expires_at: Date | null;
  grace_until: Date | null;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  rotated_at: Date | null;
  replaced_by: string | null;
}

export const API_KEY_COLUMNS = `tenant_id, environment_id, id, name, type, mode, customer_id, scopes, prefix, status,
  expires_at, grace_until, created_at, last_used_at, revoked_at, rotated_at, replaced_by`;

export interface NewApiKey {
  tenantId: string;
  environmentId: string;
  id: string;
  name: string;
  type: 'tenant' | 'customer';
  mode: 'live' | 'test';
  customerId: string | null;
  scopes: string[];
  prefix: string;
  hash: Buffer;
  expiresAt: Date | null;
  createdBy: string;
}

/** What clients see (API-CONTRACT "A key record"); the state reflects the clock even before the expiry job runs. */
export interface ApiKeyResponse {
  id: string;
  name: string;
  type: 'tenant' | 'customer';
  mode: 'live' | 'test';
  data_plane_id: string;
  customer_id: string | null;
  scopes: string[];
  prefix: string;
  status: ApiKeyRow['status'];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  rotated_at: string | null;
  replaced_by: string | null;
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toApiKeyResponse(row: ApiKeyRow, now = Date.now()): ApiKeyResponse {
  const expired = row.status === 'active' && row.expires_at !== null && row.expires_at.getTime() <= now;
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    mode: row.mode,
    data_plane_id: row.environment_id,
    customer_id: row.customer_id,
    scopes: row.scopes,
    prefix: row.prefix,
    status: expired ? 'expired' : row.status,
    created_at: row.created_at.toISOString(),
    expires_at: iso(row.expires_at),
    last_used_at: iso(row.last_used_at),
    revoked_at: iso(row.revoked_at),
    rotated_at: iso(row.rotated_at),
    replaced_by: row.replaced_by,
  };
}
