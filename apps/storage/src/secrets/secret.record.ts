import { STORAGE_LIMITS } from '@platform/messaging';
/** What clients see of a secret: metadata only, never the value (API-CONTRACT). */
export interface SecretResponse {
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
  last_read_at: string | null;
}

/** A row of storage.secrets without its ciphertext. */
export interface SecretMetaRow {
  id: string;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
  last_read_at: Date | null;
}

/** A row with its ciphertext, for decryption only; never leaves the service. */
export interface SealedSecretRow {
  id: string;
  name: string;
  data_key_id: string;
  cipher_version: number;
  iv: Buffer;
  ciphertext: Buffer;
  auth_tag: Buffer;
}

export interface DataKeyRow {
  tenant_id: string;
  environment_id: string;
  id: string;
  wrap_iv: Buffer;
  wrapped_key: Buffer;
  wrap_tag: Buffer;
  master_key_id: string;
  kek_version: number;
}

export const SECRET_META_COLUMNS = 'id, name, description, created_at, updated_at, last_read_at';
export const SEALED_SECRET_COLUMNS = 'id, name, data_key_id, cipher_version, iv, ciphertext, auth_tag';
export const DATA_KEY_COLUMNS = 'tenant_id, environment_id, id, wrap_iv, wrapped_key, wrap_tag, master_key_id, kek_version';

/** Version of the value encryption scheme (AES-256-GCM, AAD = tenant, environment, name). */
export const CIPHER_VERSION = 1;

export const SECRET_NAME = STORAGE_LIMITS.secretName;
export const MAX_SECRET_BYTES = 64 * 1024;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toSecretResponse(row: SecretMetaRow): SecretResponse {
  return {
    name: row.name,
    description: row.description,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    last_read_at: iso(row.last_read_at),
  };
}
