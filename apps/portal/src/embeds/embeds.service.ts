import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, ValidationFailedError, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { BusError } from '@platform/messaging';
import { CustomerDirectory } from '../customers/customer-directory.js';
import { DashboardsService } from '../dashboards/dashboards.service.js';
import { PortalErrors } from '../publishing/portal.errors.js';
import { PublishedWorkflowsService } from '../publishing/published-workflows.service.js';
import { KeyRing } from '../signing/key-ring.js';
import type { CreateEmbedRequestDto, ListEmbedsQueryDto } from './dto/embed.request.dto.js';
import type { CreatedEmbedResponse, EmbedResponse } from './dto/embed.response.dto.js';
import { embedsRepository, type EmbedRow } from './embeds.repository.js';
import { iframeSnippet, viewUrl } from './snippet.js';

const DEFAULT_TTL_SECONDS = 3600;
const DEFAULT_RATE_PER_MINUTE = 30;

export const toEmbedResponse = (row: EmbedRow): EmbedResponse => ({
  id: row.id,
  kind: row.kind,
  target_id: row.target_id,
  customer_id: row.scope_id,
  allowed_origins: row.allowed_origins,
  rate_limit_per_minute: row.rate_limit_per_minute,
  expires_at: row.expires_at.toISOString(),
  revoked_at: row.revoked_at?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
});

const isNotFound = (error: unknown) => (error as { status?: number }).status === 404 || (error instanceof BusError && error.remote?.status === 404);

/**
 * Embed tokens: a row (revocable, listable, the frame-ancestors source) and a JWT signed with the
 * platform's rotating key, bound to one tenant environment, customer, kind and target.
 */
@Injectable()
export class EmbedsService {
  constructor(
    private readonly db: TenantDb,
    private readonly keys: KeyRing,
    private readonly customers: CustomerDirectory,
    private readonly published: PublishedWorkflowsService,
    private readonly dashboards: DashboardsService,
  ) {}

  async create(p: Principal, body: CreateEmbedRequestDto, base: string): Promise<CreatedEmbedResponse> {
    if (p.scopeId) throw PortalErrors.forbidden();
    await this.customers.requireAll(p, [body.customer_id], () => 'customer_id');
    const title = await this.targetTitle(p, body);
    const id = newId();
    const expiresAt = new Date(Date.now() + (body.expires_in_seconds ?? DEFAULT_TTL_SECONDS) * 1000);
    const row = await this.db.run(p, (m) =>
      embedsRepository.insert(m, {
        tenant_id: p.tenantId,
        environment_id: p.environmentId,
        scope_id: body.customer_id,
        id,
        kind: body.kind,
        target_id: body.target_id,
        allowed_origins: [...new Set(body.allowed_origins.map((o) => o.toLowerCase()))],
        rate_limit_per_minute: body.rate_limit_per_minute ?? DEFAULT_RATE_PER_MINUTE,
        expires_at: expiresAt,
        created_by: p.subject,
      }),
    );
    const token = await this.keys.sign({ tid: p.tenantId, eid: p.environmentId, cid: body.customer_id, knd: body.kind, tgt: body.target_id }, id, expiresAt);
    const url = viewUrl(base, body.kind, body.target_id, token);
    return { ...toEmbedResponse(row), url, token, html: iframeSnippet(url, title) };
  }

  async list(p: Principal, q: ListEmbedsQueryDto): Promise<Page<EmbedResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      embedsRepository.list(m, { afterId: after?.id ?? null, kind: q.kind, targetId: q.target_id, customerId: q.customer_id, limit: q.limit }),
    );
    return toPage(rows, q.limit, toEmbedResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<EmbedResponse> {
    const row = await this.db.run(p, (m) => embedsRepository.get(m, id));
    if (!row) throw PortalErrors.embedNotFound();
    return toEmbedResponse(row);
  }

  /** The token stops working at once: every view checks its row. */
  async revoke(p: Principal, id: string): Promise<void> {
    if (p.scopeId) throw PortalErrors.forbidden();
    if (!(await this.db.run(p, (m) => embedsRepository.revoke(m, id)))) throw PortalErrors.embedNotFound();
  }

  /** The target must exist and, for a published workflow, be visible to the customer: a 400 naming target_id otherwise. */
  private async targetTitle(p: Principal, body: CreateEmbedRequestDto): Promise<string> {
    try {
      if (body.kind === 'dashboard') return (await this.dashboards.get(p, body.target_id)).name;
      return (await this.published.get({ ...p, scopeId: body.customer_id }, body.target_id)).title;
    } catch (error) {
      if (isNotFound(error))
        throw new ValidationFailedError([
          { field: 'target_id', message: `no ${body.kind === 'dashboard' ? 'dashboard' : 'workflow published to this customer'} with this id` },
        ]);
      throw error;
    }
  }
}
