import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';
import type { CreateWebhookRequest, UpdateWebhookRequest, Webhook, WebhookDelivery } from '../types.js';

export interface WebhookFilters {
  workflow_id?: string;
  enabled?: boolean;
}

export interface DeliveryFilters {
  outcome?: 'accepted' | 'duplicate' | 'rejected';
  from?: string;
  to?: string;
}

/** `/webhooks`: inbound webhooks and their deliveries. */
export class Webhooks {
  constructor(private readonly http: Transport) {}

  list(filters: WebhookFilters = {}, options: ListOptions = {}): Paginated<Webhook> {
    return new Paginated((page, call) => this.http.request<Page<Webhook>>('GET', '/webhooks', { ...call, query: { ...filters, ...page } }), options);
  }

  get(id: string, options: CallOptions = {}): Promise<Webhook> {
    return this.http.request('GET', `/webhooks/${encodeURIComponent(id)}`, options);
  }

  /** A new webhook; its secret is in `secret`, this once. */
  create(body: CreateWebhookRequest, options: CallOptions = {}): Promise<Webhook> {
    return this.http.request('POST', '/webhooks', { ...options, body });
  }

  update(id: string, body: UpdateWebhookRequest, options: CallOptions = {}): Promise<Webhook> {
    return this.http.request('PATCH', `/webhooks/${encodeURIComponent(id)}`, { ...options, body });
  }

  delete(id: string, options: CallOptions = {}): Promise<void> {
    return this.http.request('DELETE', `/webhooks/${encodeURIComponent(id)}`, options);
  }

  /** Deliveries, newest first. */
  logs(id: string, filters: DeliveryFilters = {}, options: ListOptions = {}): Paginated<WebhookDelivery> {
    return new Paginated(
      (page, call) => this.http.request<Page<WebhookDelivery>>('GET', `/webhooks/${encodeURIComponent(id)}/logs`, { ...call, query: { ...filters, ...page } }),
      options,
    );
  }
}
