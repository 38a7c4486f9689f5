import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from '@platform/auth';
import { isUuid, newId, type ServiceConfig } from '@platform/common';
import { SystemDb, TenantDb, type TenantContext } from '@platform/db';
import { SERVICE_CONFIG } from '@platform/service';
import { RunStarter } from './run-starter.js';
import { verifyStandardWebhook, verifyToken, type VerifyResult } from './signature.js';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';
import { WebhookErrors } from './webhooks.errors.js';
import { receivingRepository } from './receiving.repository.js';
import { deliveriesRepository, webhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';
import { SyncWaiter } from './sync-waiter.js';

/** What the receiving route got: the raw bytes as sent and what the framework parsed. */
export interface IncomingDelivery {
  method: string;
  headers: IncomingHttpHeaders;
  query: Record<string, unknown>;
  contentType: string | null;
  raw: Buffer;
  /** The parsed body when it was JSON. */
  json?: unknown;
}

export interface ReceiveAnswer {
  status: number;
  body: Record<string, unknown>;
}

const ALWAYS_MASKED = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'webhook-signature']);

type Owner = TenantContext & { scopeId: string | null };

type Intake =
  { kind: 'accepted'; delivery: DeliveryRow; webhook: WebhookRow } | { kind: 'duplicate'; first: DeliveryRow; webhook: WebhookRow } | { kind: 'rejected' };

/**
 * The public receiving route: find the webhook's owner, verify, write the delivery durably
 * (deduplicated), then start its run. The answer comes only after the delivery is committed, so
 * an accepted delivery is never lost; a run that could not be started now is started by the
 * reconciler later.
 */
@Injectable()
export class DeliveriesService {
  /** id → owner. Ownership never changes; a deleted webhook is caught by the tenant read. */
  private readonly owners = new Map<string, Owner>();

  constructor(
    private readonly db: TenantDb,
    private readonly system: SystemDb,
    private readonly webhooks: WebhooksService,
    private readonly starter: RunStarter,
    private readonly sync: SyncWaiter,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async receive(id: string, incoming: IncomingDelivery): Promise<ReceiveAnswer> {
    const owner = await this.owner(id);
    if (!owner) throw WebhookErrors.notFound();
    const intake = await this.intake(owner, id, incoming);
    if (intake.kind === 'rejected') throw WebhookErrors.unauthorized();
    if (intake.kind === 'duplicate') {
      const runId =
        intake.first.run_id ?? (intake.first.outcome === 'accepted' && !intake.first.start_error ? await this.startAndRecord(owner, intake.first) : null);
      return { status: 200, body: { run_id: runId, delivery_id: intake.first.id, duplicate: true } };
    }
    const sync = intake.webhook.response_mode === 'sync';
    const runId = await this.startAndRecord(owner, intake.delivery, sync ? (id) => this.sync.expect(id) : undefined);
    if (sync && runId) {
      return this.sync.wait(owner, runId, intake.delivery.id, intake.webhook.timeout_ms ?? 10_000);
    }
    return { status: 202, body: { run_id: runId, delivery_id: intake.delivery.id } };
  }

  /** Starts the run of a stored, accepted delivery again, as a new delivery (and so a new run). */
  async replay(p: Principal, webhookId: string, deliveryId: string): Promise<ReceiveAnswer> {
    const owner: Owner = { tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId ?? null };
    const copy = await this.db.run(owner, async (m) => {
      const webhook = await webhooksRepository.get(m, webhookId);
      if (!webhook) throw WebhookErrors.notFound();
      const original = await deliveriesRepository.get(m, webhookId, deliveryId);
      if (!original) throw WebhookErrors.deliveryNotFound();
      if (original.outcome === 'rejected' || !original.run_input) throw WebhookErrors.notReplayable();
      const id = newId();
      return deliveriesRepository.insert(m, {
        tenantId: owner.tenantId,
        environmentId: owner.environmentId,
        scopeId: webhook.scope_id,
        id,
        webhookId,
        workflowId: webhook.workflow_id,
        method: original.method,
        headers: original.headers,
        body: original.body,
        contentType: original.content_type,
        outcome: 'accepted',
        reason: `replay of ${original.id}`,
        statusCode: 202,
        dedupeKey: null,
        runInput: { ...original.run_input, delivery_id: id, replay_of: original.id },
        replayOf: original.id,
      });
    });
    if (!copy) throw new Error('replayed delivery was not written');
    const runId = await this.startAndRecord(owner, copy);
    return { status: 202, body: { run_id: runId, delivery_id: copy.id, replay_of: deliveryId } };
  }

  /** Starts a delivery's run and records the outcome; null when the run service could not be reached. */
  async startAndRecord(owner: TenantContext, delivery: DeliveryRow, onRunId?: (runId: string) => void): Promise<string | null> {
    const outcome = await this.starter.start(delivery);
    if (outcome.runId !== null) {
      onRunId?.(outcome.runId);
      await receivingRepository.recordStart(this.db, owner, delivery.id, outcome.runId, null, true);
      return outcome.runId;
    }
    if (outcome.permanent) await receivingRepository.recordStart(this.db, owner, delivery.id, null, outcome.error, false);
    return null;
  }

  /**
   * Verify, then record: the delivery is committed (synchronously) before the caller answers.
   * The webhook is read and the delivery written in two round trips rather than one transaction:
   * a webhook disabled in between accepts this one delivery, as if it had arrived a moment earlier.
   */
  private async intake(owner: Owner, id: string, incoming: IncomingDelivery): Promise<Intake> {
    const webhook = await receivingRepository.find(this.db, owner, id);
    if (!webhook) {
      this.owners.delete(id);
      throw WebhookErrors.notFound();
    }
    if (!webhook.enabled) throw WebhookErrors.notFound();
    const header = (name: string) => {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const verdict = this.verify(owner, webhook, incoming, header);
    const base = {
      tenantId: owner.tenantId,
      environmentId: owner.environmentId,
      scopeId: webhook.scope_id,
      webhookId: id,
      workflowId: webhook.workflow_id,
      method: incoming.method,
      headers: this.mask(incoming.headers, webhook),
      body: incoming.raw,
      contentType: incoming.contentType,
    };
    try {
      if (!verdict.ok) {
        await receivingRepository.record(
          this.db,
          owner,
          { ...base, id: newId(), outcome: 'rejected', reason: verdict.reason, statusCode: 401, dedupeKey: null, runInput: null },
          newId(),
        );
        return { kind: 'rejected' };
      }
      const deliveryId = newId();
      const runInput = {
        body: this.parsedBody(incoming),
        headers: base.headers,
        query: incoming.query,
        method: incoming.method,
        webhook_id: id,
        delivery_id: deliveryId,
      };
      const row = await receivingRepository.record(
        this.db,
        owner,
        { ...base, id: deliveryId, outcome: 'accepted', reason: null, statusCode: 202, dedupeKey: this.dedupeKey(header), runInput },
        newId(),
      );
      return row.id === deliveryId ? { kind: 'accepted', delivery: row, webhook } : { kind: 'duplicate', first: row, webhook };
    } catch (error) {
      // The webhook was deleted between the read and the write.
      if ((error as { code?: string }).code === '23503') throw WebhookErrors.notFound();
      throw error;
    }
  }

  private verify(owner: Owner, webhook: WebhookRow, incoming: IncomingDelivery, header: (n: string) => string | undefined): VerifyResult {
    if (webhook.verification_type === 'none') return { ok: true };
    const secret = this.webhooks.openSecret(owner, webhook);
    if (!secret) return { ok: false, reason: 'webhook has no secret' };
    if (webhook.verification_type === 'token') return verifyToken(secret, header((webhook.token_header ?? '').toLowerCase()));
    return verifyStandardWebhook(
      secret,
      { id: header('webhook-id'), timestamp: header('webhook-timestamp'), signature: header('webhook-signature') },
      incoming.raw,
    );
  }

  private dedupeKey(header: (n: string) => string | undefined): string | null {
    const key = header('webhook-id') ?? header('idempotency-key');
    return key ? key.slice(0, 255) : null;
  }

  private parsedBody(incoming: IncomingDelivery): unknown {
    if (incoming.json !== undefined) return incoming.json;
    const text = incoming.raw.toString('utf8');
    if ((incoming.contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
    return text;
  }

  private mask(headers: IncomingHttpHeaders, webhook: WebhookRow): Record<string, string> {
    const masked: Record<string, string> = {};
    const token = webhook.token_header?.toLowerCase();
    for (const [name, value] of Object.entries(headers)) {
      if (value === undefined) continue;
      masked[name] = ALWAYS_MASKED.has(name) || name === token ? '***' : Array.isArray(value) ? value.join(', ') : value;
    }
    return masked;
  }

  private async owner(id: string): Promise<Owner | undefined> {
    if (!isUuid(id)) return undefined;
    const cached = this.owners.get(id);
    if (cached) return cached;
    const row = await this.system.run('webhook receiving: find the owner of a webhook id', (m) => webhooksRepository.owner(m, id), 'debug');
    if (!row) return undefined;
    const owner = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id };
    if (this.owners.size > 100_000) this.owners.clear();
    this.owners.set(id, owner);
    return owner;
  }

  get bodyLimit(): number {
    return this.config.BODY_LIMIT_BYTES;
  }
}
