import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';
import type { CreateTriggerRequest, Trigger, TriggerFiring, UpdateTriggerRequest } from '../types.js';

export interface TriggerFilters {
  type?: 'schedule' | 'event' | 'webhook';
  status?: 'enabled' | 'disabled';
  workflow_id?: string;
}

/** `/triggers`: schedules, event triggers and webhook triggers. */
export class Triggers {
  constructor(private readonly http: Transport) {}

  list(filters: TriggerFilters = {}, options: ListOptions = {}): Paginated<Trigger> {
    return new Paginated((page, call) => this.http.request<Page<Trigger>>('GET', '/triggers', { ...call, query: { ...filters, ...page } }), options);
  }

  get(id: string, options: CallOptions = {}): Promise<Trigger> {
    return this.http.request('GET', `/triggers/${encodeURIComponent(id)}`, options);
  }

  create(body: CreateTriggerRequest, options: CallOptions = {}): Promise<Trigger> {
    return this.http.request('POST', '/triggers', { ...options, body });
  }

  update(id: string, body: UpdateTriggerRequest, options: CallOptions = {}): Promise<Trigger> {
    return this.http.request('PATCH', `/triggers/${encodeURIComponent(id)}`, { ...options, body });
  }

  delete(id: string, options: CallOptions = {}): Promise<void> {
    return this.http.request('DELETE', `/triggers/${encodeURIComponent(id)}`, options);
  }

  enable(id: string, options: CallOptions = {}): Promise<Trigger> {
    return this.http.request('PUT', `/triggers/${encodeURIComponent(id)}/enable`, options);
  }

  disable(id: string, options: CallOptions = {}): Promise<Trigger> {
    return this.http.request('PUT', `/triggers/${encodeURIComponent(id)}/disable`, options);
  }

  /** Each firing, with the run it started. */
  firings(id: string, options: ListOptions = {}): Paginated<TriggerFiring> {
    return new Paginated(
      (page, call) => this.http.request<Page<TriggerFiring>>('GET', `/triggers/${encodeURIComponent(id)}/executions`, { ...call, query: page }),
      options,
    );
  }
}
