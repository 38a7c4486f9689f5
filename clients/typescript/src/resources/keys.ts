import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';
import type { ApiKey, CreateApiKeyRequest, CreatedApiKey } from '../types.js';

export interface KeyFilters {
  data_plane_id?: string;
  status?: 'active' | 'revoked' | 'expired' | 'rotated';
  type?: 'tenant' | 'customer';
  customer_id?: string;
}

/** `/account/api-keys`: API keys of the caller's data plane. */
export class Keys {
  constructor(private readonly http: Transport) {}

  list(filters: KeyFilters = {}, options: ListOptions = {}): Paginated<ApiKey> {
    return new Paginated((page, call) => this.http.request<Page<ApiKey>>('GET', '/account/api-keys', { ...call, query: { ...filters, ...page } }), options);
  }

  get(id: string, options: CallOptions = {}): Promise<ApiKey> {
    return this.http.request('GET', `/account/api-keys/${encodeURIComponent(id)}`, options);
  }

  /** A new key; its value is in `key`, this once. */
  create(body: CreateApiKeyRequest, options: CallOptions = {}): Promise<CreatedApiKey> {
    return this.http.request('POST', '/account/api-keys', { ...options, body });
  }

  /** A successor with the same scopes; the old key keeps working for `transitionPeriodSeconds` (default 0). */
  rotate(id: string, options: CallOptions & { transitionPeriodSeconds?: number } = {}): Promise<CreatedApiKey> {
    const { transitionPeriodSeconds, ...call } = options;
    return this.http.request('POST', `/account/api-keys/${encodeURIComponent(id)}/rotate`, {
      ...call,
      body: transitionPeriodSeconds === undefined ? {} : { transition_period_seconds: transitionPeriodSeconds },
    });
  }

  revoke(id: string, options: CallOptions = {}): Promise<ApiKey> {
    return this.http.request('POST', `/account/api-keys/${encodeURIComponent(id)}/revoke`, options);
  }
}
