import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { Bus, resolveWorkflow, type LinkedWebhook } from '@platform/messaging';
import { SecretBox, type SealedSecret } from './secret-box.js';
import { newSecret } from './signature.js';
import { toDeliveryResponse, toWebhookResponse, type DeliveryResponse, type WebhookResponse } from './webhook.record.js';
import { WebhookErrors } from './webhooks.errors.js';
import { deliveriesRepository, webhooksRepository, type WebhookChanges } from './webhooks.repository.js';
import type { ListDeliveriesQueryDto, ListWebhooksQueryDto } from './dto/webhook-query.dto.js';
import type { CreateWebhookRequestDto, UpdateWebhookRequestDto, VerificationType } from './dto/webhook.request.dto.js';

const DEFAULT_SYNC_TIMEOUT_MS = 10_000;
const needsSecret = (type: VerificationType) => type === 'hmac' || type === 'token';

/** Webhook endpoints of a tenant environment: CRUD, secret rotation and the delivery log. */
@Injectable()
export class WebhooksService {
  constructor(
    private readonly db: TenantDb,
    private readonly box: SecretBox,
    private readonly bus: Bus,
  ) {}

  async create(p: Principal, dto: CreateWebhookRequestDto): Promise<WebhookResponse> {
    await resolveWorkflow(this.bus, p, dto.workflow_id);
    const id = newId();
    const secret = needsSecret(dto.verification.type) ? newSecret() : undefined;
    const mode = dto.response?.mode ?? 'async';
    const row = await this.db.run(p, (m) =>
      webhooksRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId: p.scopeId ?? null,
        id,
        name: dto.name,
        workflowId: dto.workflow_id,
        verificationType: dto.verification.type,
        tokenHeader: dto.verification.type === 'token' ? (dto.verification.header ?? null) : null,
        sealed: secret ? this.box.seal(p.tenantId, p.environmentId, id, secret) : null,
        responseMode: mode,
        timeoutMs: mode === 'sync' ? (dto.response?.timeout_ms ?? DEFAULT_SYNC_TIMEOUT_MS) : null,
        enabled: dto.enabled ?? true,
      }),
    );
    return toWebhookResponse(row, secret);
  }

  async list(p: Principal, q: ListWebhooksQueryDto): Promise<Page<WebhookResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      webhooksRepository.list(m, { workflowId: q.workflow_id, enabled: q.enabled, afterId: after?.id ?? null, limit: q.limit }),
    );
    return toPage(
      rows,
      q.limit,
      (r) => toWebhookResponse(r),
      (r) => ({ id: r.id }),
    );
  }

  async get(p: Principal, id: string): Promise<WebhookResponse> {
    const row = await this.db.run(p, (m) => webhooksRepository.get(m, id));
    if (!row) throw WebhookErrors.notFound();
    return toWebhookResponse(row);
  }

  async update(p: Principal, id: string, dto: UpdateWebhookRequestDto): Promise<WebhookResponse> {
    return this.db.run(p, async (m) => {
      const existing = await webhooksRepository.get(m, id, true);
      if (!existing) throw WebhookErrors.notFound();
      if (dto.workflow_id && dto.workflow_id !== existing.workflow_id) await resolveWorkflow(this.bus, p, dto.workflow_id);
      const changes: WebhookChanges = { name: dto.name, workflowId: dto.workflow_id, enabled: dto.enabled };
      let secret: string | undefined;
      if (dto.verification) {
        const type = dto.verification.type;
        changes.verificationType = type;
        changes.tokenHeader = type === 'token' ? (dto.verification.header ?? null) : null;
        if (!needsSecret(type)) changes.sealed = null;
        else if (type !== existing.verification_type) {
          // A new kind of verification gets a new secret; keeping the type keeps the secret.
          secret = newSecret();
          changes.sealed = this.box.seal(p.tenantId, p.environmentId, id, secret);
        }
      }
      if (dto.response) {
        changes.responseMode = dto.response.mode;
        changes.timeoutMs = dto.response.mode === 'sync' ? (dto.response.timeout_ms ?? DEFAULT_SYNC_TIMEOUT_MS) : null;
      }
      const row = await webhooksRepository.update(m, id, changes);
      if (!row) throw WebhookErrors.notFound();
      return toWebhookResponse(row, secret);
    });
  }

  async delete(p: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(p, (m) => webhooksRepository.delete(m, id));
    if (!deleted) throw WebhookErrors.notFound();
  }

  /** A new secret at once; the old one stops verifying immediately. */
  async rotateSecret(p: Principal, id: string): Promise<WebhookResponse> {
    return this.db.run(p, async (m) => {
      const existing = await webhooksRepository.get(m, id, true);
      if (!existing) throw WebhookErrors.notFound();
      if (!needsSecret(existing.verification_type)) return toWebhookResponse(existing);
      const secret = newSecret();
      const sealed: SealedSecret = this.box.seal(p.tenantId, p.environmentId, id, secret);
      const row = await webhooksRepository.update(m, id, { sealed });
      if (!row) throw WebhookErrors.notFound();
      return toWebhookResponse(row, secret);
    });
  }

  async logs(p: Principal, id: string, q: ListDeliveriesQueryDto): Promise<Page<DeliveryResponse>> {
    const before = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, async (m) => {
      if (!(await webhooksRepository.get(m, id))) throw WebhookErrors.notFound();
      return deliveriesRepository.list(m, id, { outcome: q.outcome, from: q.from, to: q.to, beforeId: before?.id ?? null, limit: q.limit });
    });
    return toPage(rows, q.limit, toDeliveryResponse, (r) => ({ id: r.id }));
  }

  /** The secret of a webhook, decrypted for verification. */
  /** A webhook trigger points at this webhook (the trigger service asks): its deliveries are announced from now on. */
  async link(ctx: TenantContext, id: string): Promise<LinkedWebhook> {
    const row = await this.db.run(ctx, (m) => webhooksRepository.markFiresTriggers(m, id));
    if (!row) throw WebhookErrors.notFound();
    return { id: row.id, name: row.name, workflowId: row.workflow_id };
  }

  openSecret(ctx: TenantContext, row: { id: string; secret_iv: Buffer | null; secret_ciphertext: Buffer | null; secret_tag: Buffer | null }): string | null {
    if (!row.secret_iv || !row.secret_ciphertext || !row.secret_tag) return null;
    return this.box.open(ctx.tenantId, ctx.environmentId, row.id, { iv: row.secret_iv, ciphertext: row.secret_ciphertext, tag: row.secret_tag });
  }
}
