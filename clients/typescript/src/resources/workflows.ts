import { Paginated, type ListOptions, type Page } from '../pagination.js';
import type { CallOptions, Transport } from '../transport.js';
import type { CreateWorkflowRequest, PatchWorkflowRequest, ValidationResult, Workflow } from '../types.js';

export interface WorkflowFilters {
  status?: 'active' | 'disabled';
  /** A case-insensitive prefix of the name. */
  name?: string;
}

/** `/run/workflows`: versioned workflow definitions. */
export class Workflows {
  constructor(private readonly http: Transport) {}

  /** Current versions, newest first, every page. */
  list(filters: WorkflowFilters = {}, options: ListOptions = {}): Paginated<Workflow> {
    return new Paginated((page, call) => this.http.request<Page<Workflow>>('GET', '/run/workflows', { ...call, query: { ...filters, ...page } }), options);
  }

  get(id: string, options: CallOptions & { version?: number } = {}): Promise<Workflow> {
    const { version, ...call } = options;
    return this.http.request('GET', `/run/workflows/${encodeURIComponent(id)}`, { ...call, query: { version } });
  }

  /** The workflow whose name is exactly `name`, or undefined. */
  async findByName(name: string, options: CallOptions = {}): Promise<Workflow | undefined> {
    for await (const workflow of this.list({ name }, { ...options, pageSize: 200 })) {
      if (workflow.name === name) return workflow;
    }
    return undefined;
  }

  create(body: CreateWorkflowRequest, options: CallOptions = {}): Promise<Workflow> {
    return this.http.request('POST', '/run/workflows', { ...options, body });
  }

  /** Replaces the definition (a new version); fields left out are reset. */
  replace(id: string, body: CreateWorkflowRequest, options: CallOptions = {}): Promise<Workflow> {
    return this.http.request('PUT', `/run/workflows/${encodeURIComponent(id)}`, { ...options, body });
  }

  /** Changes only the fields given (a new version). */
  update(id: string, body: PatchWorkflowRequest, options: CallOptions = {}): Promise<Workflow> {
    return this.http.request('PATCH', `/run/workflows/${encodeURIComponent(id)}`, { ...options, body });
  }

  delete(id: string, options: CallOptions = {}): Promise<void> {
    return this.http.request('DELETE', `/run/workflows/${encodeURIComponent(id)}`, options);
  }

  /** Checks a definition without saving it; every problem with its path. */
  validate(body: Pick<CreateWorkflowRequest, 'steps' | 'input_schema' | 'settings'>, options: CallOptions = {}): Promise<ValidationResult> {
    return this.http.request('POST', '/run/workflows/validate', { ...options, body });
  }
}
