import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, ValidationFailedError, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { Bus, messageContext, resolveWorkflow, RunSubjects } from '@platform/messaging';
import { CustomerDirectory } from '../customers/customer-directory.js';
import type {
  ListPublishedWorkflowsQueryDto,
  PublishWorkflowRequestDto,
  RunPublishedWorkflowRequestDto,
  UpdatePublishedWorkflowRequestDto,
  VisibilityInput,
} from './dto/published-workflow.request.dto.js';
import type { PublishedWorkflowResponse } from './dto/published-workflow.response.dto.js';
import { PortalErrors } from './portal.errors.js';
import { publishedWorkflowsRepository, type PublishedWorkflowRow } from './published-workflows.repository.js';

const MAX_CUSTOMERS = 500;
const EMPTY_FORM = { type: 'object', properties: {} };

export function toPublishedResponse(row: PublishedWorkflowRow): PublishedWorkflowResponse {
  return {
    id: row.id,
    workflow_id: row.workflow_id,
    visibility: row.all_customers ? 'all_customers' : { customer_ids: row.customer_ids },
    title: row.title,
    description: row.description,
    input_form: row.input_form ?? EMPTY_FORM,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** `"all_customers"` or `{ customer_ids: [uuid, ...] }`; anything else is a 400 naming the field. */
function parseVisibility(value: unknown): { all_customers: boolean; customer_ids: string[] } {
  if (value === 'all_customers') return { all_customers: true, customer_ids: [] };
  const ids = (value as { customer_ids?: unknown } | null)?.customer_ids;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (
    typeof value !== 'object' ||
    value === null ||
    Object.keys(value).some((k) => k !== 'customer_ids') ||
    !Array.isArray(ids) ||
    ids.length > MAX_CUSTOMERS
  ) {
    throw new ValidationFailedError([{ field: 'visibility', message: `must be "all_customers" or { customer_ids: [...] } with at most ${MAX_CUSTOMERS} ids` }]);
  }
  const bad = ids.findIndex((id) => typeof id !== 'string' || !uuid.test(id));
  if (bad >= 0) throw new ValidationFailedError([{ field: `visibility.customer_ids[${bad}]`, message: 'must be a UUID' }]);
  return { all_customers: false, customer_ids: [...new Set((ids as string[]).map((id) => id.toLowerCase()))] };
}

/** null, like a field left out, means the default form (the workflow's input_schema). */
function checkForm(form: Record<string, unknown> | null | undefined): void {
  if (form !== undefined && form !== null && form.type !== 'object')
    throw new ValidationFailedError([{ field: 'input_form', message: 'must be a JSON Schema of type object' }]);
}

/** Publishing workflows to customers, and a customer's runs of them (in its own scope). */
@Injectable()
export class PublishedWorkflowsService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly customers: CustomerDirectory,
  ) {}

  async publish(p: Principal, body: PublishWorkflowRequestDto): Promise<PublishedWorkflowResponse> {
    if (p.scopeId) throw PortalErrors.forbidden();
    const visibility = await this.visibility(p, body.visibility);
    checkForm(body.input_form);
    const workflow = await resolveWorkflow(this.bus, p, body.workflow_id);
    const row = await this.db.run(p, (m) =>
      publishedWorkflowsRepository.insert(m, {
        tenant_id: p.tenantId,
        environment_id: p.environmentId,
        id: newId(),
        workflow_id: workflow.id,
        ...visibility,
        title: body.title,
        description: body.description ?? null,
        input_form: body.input_form ?? workflow.input_schema ?? null,
      }),
    );
    return toPublishedResponse(row);
  }

  async list(p: Principal, q: ListPublishedWorkflowsQueryDto): Promise<Page<PublishedWorkflowResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      publishedWorkflowsRepository.list(m, { customerId: p.scopeId, afterId: after?.id ?? null, workflowId: q.workflow_id, limit: q.limit }),
    );
    return toPage(rows, q.limit, toPublishedResponse, (r) => ({ id: r.id }));
  }

  /** What a customer may not see is 404, exactly like an unknown id or another tenant's. */
  async get(p: Pick<Principal, 'tenantId' | 'environmentId' | 'scopeId'>, id: string): Promise<PublishedWorkflowResponse> {
    const row = await this.db.run(p, (m) => publishedWorkflowsRepository.get(m, id, p.scopeId));
    if (!row) throw PortalErrors.publishedNotFound();
    return toPublishedResponse(row);
  }

  async update(p: Principal, id: string, body: UpdatePublishedWorkflowRequestDto): Promise<PublishedWorkflowResponse> {
    if (p.scopeId) throw PortalErrors.forbidden();
    const visibility = body.visibility === undefined ? {} : await this.visibility(p, body.visibility);
    checkForm(body.input_form);
    const row = await this.db.run(p, (m) =>
      publishedWorkflowsRepository.update(m, id, { ...visibility, title: body.title, description: body.description, input_form: body.input_form }),
    );
    if (!row) throw PortalErrors.publishedNotFound();
    return toPublishedResponse(row);
  }

  async delete(p: Principal, id: string): Promise<void> {
    if (p.scopeId) throw PortalErrors.forbidden();
    if (!(await this.db.run(p, (m) => publishedWorkflowsRepository.delete(m, id)))) throw PortalErrors.publishedNotFound();
  }

  /**
   * Starts the workflow in the customer's own scope (its executions, and the connection service
   * resolving its own connections from that scope). A customer key runs as itself; a tenant key
   * names the customer. Idempotent per customer and key.
   */
  async run(
    p: Principal,
    id: string,
    body: RunPublishedWorkflowRequestDto,
    idempotencyKey: string | undefined,
  ): Promise<{ run_id: string; status: string; customer_id: string }> {
    const customerId = p.scopeId ?? body.customer_id;
    if (!customerId) throw new ValidationFailedError([{ field: 'customer_id', message: 'is required for a tenant key without X-Scope-Key' }]);
    if (p.scopeId && body.customer_id && body.customer_id !== p.scopeId) throw PortalErrors.forbidden();
    if (!p.scopeId) await this.customers.requireAll(p, [customerId], () => 'customer_id');
    const scoped = { tenantId: p.tenantId, environmentId: p.environmentId, scopeId: customerId };
    const published = await this.get(scoped, id);
    return this.start(scoped, published, body.input ?? {}, idempotencyKey ? `portal:${id}:${idempotencyKey}` : undefined, p.keyMode);
  }

  /** Also the public form's start: the scope is the bound customer's. */
  async start(
    scoped: { tenantId: string; environmentId: string; scopeId: string },
    published: PublishedWorkflowResponse,
    input: Record<string, unknown>,
    idempotencyKey: string | undefined,
    keyMode?: 'live' | 'test',
  ): Promise<{ run_id: string; status: string; customer_id: string }> {
    const answer = await this.bus.request(
      RunSubjects.executionsStart,
      {
        workflowId: published.workflow_id,
        input,
        trigger: { type: 'portal', id: published.id },
        ...(idempotencyKey ? { idempotencyKey } : {}),
        ...(keyMode ? { keyMode } : {}),
      },
      messageContext(scoped),
      { timeoutMs: 10_000 },
    );
    return { run_id: answer.runId, status: answer.status, customer_id: scoped.scopeId };
  }

  private async visibility(p: Principal, value: VisibilityInput): Promise<{ all_customers: boolean; customer_ids: string[] }> {
    const parsed = parseVisibility(value);
    await this.customers.requireAll(p, parsed.customer_ids, (i) => `visibility.customer_ids[${i}]`);
    return parsed;
  }
}
