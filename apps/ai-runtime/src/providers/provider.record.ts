export interface ProviderModel {
  id: string;
  kind: 'chat' | 'embedding';
}

export interface ProviderRow {
  tenant_id: string;
  environment_id: string;
  id: string;
  name: string;
  base_url: string;
  api_key_header: 'authorization' | 'api-key';
  models: ProviderModel[];
  secret_iv: Buffer | null;
  secret_ciphertext: Buffer | null;
  secret_tag: Buffer | null;
  created_at: Date;
  updated_at: Date;
}

/** A provider as clients see it: the API key is write-only. */
export interface ProviderResponse {
  id: string;
  name: string;
  kind: 'openai_compatible';
  base_url: string;
  api_key_header: 'authorization' | 'api-key';
  has_api_key: boolean;
  models: ProviderModel[];
  created_at: string;
  updated_at: string;
}

export function toProviderResponse(row: ProviderRow): ProviderResponse {
  return {
    id: row.id,
    name: row.name,
    kind: 'openai_compatible',
    base_url: row.base_url,
    api_key_header: row.api_key_header,
    has_api_key: row.secret_ciphertext !== null,
    models: row.models,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
