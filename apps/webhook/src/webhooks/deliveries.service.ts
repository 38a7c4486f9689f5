import { Inject, Injectable } from '@nestjs/common';
import type { IncomingHttpHeaders } from 'node:http';
import type { Principal } from '@platform/auth';
import { assertStorableText, newId } from '@platform/common';
import { TenantDb } from '@platform/db';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../config/webhook.config.js';
import { DeliveryStarter, type RunInputLimit, type StartableDelivery } from './delivery-starter.js';
import { ReceivingCache, type Owner, type ReceivingWebhook } from './receiving-cache.js';
import type { StartOutcome } from './run-starter.js';
import { verifyStandardWebhook, verifyToken, type VerifyResult } from './signature.js';
import type { DeliveryRow, WebhookRow } from './webhook.record.js';
import { WebhookErrors } from './webhooks.errors.js';
import type { RecordedDelivery } from './receiving.repository.js';
import { DeliveryWriter } from './delivery-writer.js';
import { deliveriesRepository, webhooksRepository } from './webhooks.repository.js';
import { SyncWaiter } from './sync-waiter.js';
import { deliveryReceived } from './webhook.metrics.js';

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

/** What headers, query and the run input's own fields add to a body's size, at most. */
const RUN_INPUT_SLACK_BYTES = 128 * 1024;

const ALWAYS_MASKED = new Set(['authorization', 'cookie', 'proxy-authorization', 'x-api-key', 'webhook-signature']);

type Intake =
  | { kind: 'accepted'; delivery: StartableDelivery & { run_id: string } }
  | { kind: 'duplicate'; first: RecordedDelivery }
  | { kind: 'rejected' }
  /** Its run input would be over the run service's limit: refused (413) and logged as rejected. */
  | { kind: 'too_large'; bytes: number; limit: RunInputLimit }
  /** The webhook changed (or went) since it was cached: verify again against a fresh read. */
  | { kind: 'stale' };

/**
 * The public receiving route: verify against the (cached) webhook, write the delivery durably
 * and deduplicated with the id its run will have, answer, and start the run behind the answer.
 * The answer comes only after the delivery is committed, so an accepted delivery is never lost;
 * its run is started by the DeliveryStarter, or by the reconciler after a crash or an outage.
 */
@Injectable()
export class DeliveriesService {
  constructor(
    private readonly db: TenantDb,
    private readonly cache: ReceivingCache,
    private readonly writer: DeliveryWriter,
    private readonly starter: DeliveryStarter,
    private readonly sync: SyncWaiter,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
  ) {}

  async receive(id: string, incoming: IncomingDelivery): Promise<ReceiveAnswer> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const hook = await this.cache.get(id);
      if (!hook) break;
      const intake = await this.intake(hook, incoming);
      if (intake.kind === 'stale') {
        this.cache.forget(id);
        continue;
      }
      deliveryReceived(intake.kind);
      if (intake.kind === 'rejected') throw WebhookErrors.unauthorized();
      if (intake.kind === 'too_large') throw WebhookErrors.runInputTooLarge(intake.bytes, intake.limit.bytes, intake.limit.setting);
      if (intake.kind === 'duplicate') return this.answerDuplicate(hook, intake.first);
      if (hook.webhook.response_mode === 'sync') return this.answerSync(hook.owner, intake.delivery, hook.webhook.timeout_ms ?? 10_000);
      this.starter.accepted(intake.delivery);
      return { status: 202, body: { run_id: intake.delivery.run_id, delivery_id: intake.delivery.id } };
    }
    deliveryReceived('unknown_webhook');
    throw WebhookErrors.notFound();
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
      const inserted = await deliveriesRepository.insert(m, {
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
        runId: newId(),
        replayOf: original.id,
      });
      return inserted && { ...inserted, fires_triggers: webhook.fires_triggers };
    });
    if (!copy) throw new Error('replayed delivery was not written');
    const outcome = await this.starter.startNow(copy);
    return { status: 202, body: { run_id: outcome.runId ?? this.pendingRunId(copy, outcome), delivery_id: copy.id, replay_of: deliveryId } };
  }

  /** A repeated key: the first delivery's run, started now if it has not been (and is not being). */
  private async answerDuplicate({ owner, webhook }: ReceivingWebhook, first: RecordedDelivery): Promise<ReceiveAnswer> {
    if (first.outcome === 'accepted' && !first.started_at && !first.start_error && !this.starter.isHeld(first.id)) {
      const stored = await this.db.run(owner, (m) => deliveriesRepository.get(m, webhook.id, first.id));
      if (stored) this.starter.enqueue({ ...stored, fires_triggers: webhook.fires_triggers });
    }
    const runId = first.start_error && !first.started_at ? null : first.run_id;
    return { status: 200, body: { run_id: runId, delivery_id: first.id, duplicate: true } };
  }

  private async answerSync(owner: Owner, delivery: StartableDelivery & { run_id: string }, timeoutMs: number): Promise<ReceiveAnswer> {
    this.sync.expect(delivery.run_id);
    const outcome = await this.starter.startNow(delivery);
    if (outcome.runId) return this.sync.wait(owner, outcome.runId, delivery.id, timeoutMs);
    return { status: 202, body: { run_id: this.pendingRunId(delivery, outcome), delivery_id: delivery.id } };
  }

  /** The id a run not started yet will have; none for a run the run service refused. */
  private pendingRunId(delivery: Pick<DeliveryRow, 'run_id'>, outcome: StartOutcome): string | null {
    return outcome.runId === null && outcome.permanent ? null : delivery.run_id;
  }

  /** Verify, then record: the delivery is committed (synchronously) before the caller answers. */
  private async intake({ owner, webhook, secret }: ReceivingWebhook, incoming: IncomingDelivery): Promise<Intake> {
    const header = (name: string) => {
      const value = incoming.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const verdict = this.verify(webhook, secret, incoming, header);
    const base = {
      tenantId: owner.tenantId,
      environmentId: owner.environmentId,
      scopeId: webhook.scope_id,
      webhookId: webhook.id,
      workflowId: webhook.workflow_id,
      method: incoming.method,
      headers: this.mask(incoming.headers, webhook),
      body: incoming.raw,
      contentType: incoming.contentType,
    };
    const reject = async (reason: string, statusCode: number): Promise<boolean> => {
      const rejected = { ...base, id: newId(), outcome: 'rejected' as const, reason, statusCode, dedupeKey: null, runInput: null, runId: null };
      return (await this.writer.write(owner, { version: webhook.version, delivery: rejected, duplicateId: newId() })) !== undefined;
    };
    if (!verdict.ok) return (await reject(verdict.reason, 401)) ? { kind: 'rejected' } : { kind: 'stale' };
    const deliveryId = newId();
    const runInput = {
      body: this.parsedBody(incoming),
      headers: base.headers,
      query: incoming.query,
      method: incoming.method,
      webhook_id: webhook.id,
      delivery_id: deliveryId,
    };
    const limit = this.starter.runInputLimit();
    const bytes = this.oversizedRunInput(incoming.raw, runInput, limit.bytes);
    if (bytes !== null) {
      const reason = `run input of ${bytes} bytes is over the limit of ${limit.bytes} (${limit.setting})`;
      return (await reject(reason, 413)) ? { kind: 'too_large', bytes, limit } : { kind: 'stale' };
    }
    const accepted = {
      ...base,
      id: deliveryId,
      outcome: 'accepted' as const,
      reason: null,
      statusCode: 202,
      dedupeKey: this.dedupeKey(header),
      runInput,
      runId: newId(),
    };
    const row = await this.writer.write(owner, { version: webhook.version, delivery: accepted, duplicateId: newId() });
    if (!row) return { kind: 'stale' };
    if (row.id !== deliveryId) return { kind: 'duplicate', first: row };
    const delivery = {
      id: deliveryId,
      webhook_id: webhook.id,
      workflow_id: webhook.workflow_id,
      tenant_id: owner.tenantId,
      environment_id: owner.environmentId,
      scope_id: webhook.scope_id,
      run_input: runInput,
      run_id: accepted.runId,
      fires_triggers: webhook.fires_triggers,
      received_at: new Date(),
    };
    return { kind: 'accepted', delivery };
  }

  /**
   * The size of a run input over `limit`, else null. Measuring costs a serialisation,
   * so it is done only for a body that could matter: JSON escaping at most sextuples a body's
   * bytes, and headers and query (at most 16 KiB as sent) stay within the slack.
   */
  private oversizedRunInput(raw: Buffer, runInput: Record<string, unknown>, limit: number): number | null {
    if (raw.length * 6 + RUN_INPUT_SLACK_BYTES <= limit) return null;
    const bytes = Buffer.byteLength(JSON.stringify(runInput));
    return bytes > limit ? bytes : null;
  }

  private verify(webhook: WebhookRow, secret: string | null, incoming: IncomingDelivery, header: (n: string) => string | undefined): VerifyResult {
    if (webhook.verification_type === 'none') return { ok: true };
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
    // JSON was checked for unstorable text where it was parsed (StorableTextInterceptor).
    if (incoming.json !== undefined) return incoming.json;
    const text = incoming.raw.toString('utf8');
    const body = (incoming.contentType ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(text))
      : text;
    // The run input is jsonb: a NUL byte in a text or form body would fail the delivery's insert (500).
    assertStorableText(body, 'body');
    return body;
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
}
