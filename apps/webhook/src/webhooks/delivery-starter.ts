import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { TenantDb } from '@platform/db';
import { Bus, messageContext, WebhookSubjects, type WebhookDeliveryReceivedEvent } from '@platform/messaging';
import { WEBHOOK_CONFIG, type WebhookConfig } from '../config/webhook.config.js';
import { IntakeRate } from './intake-rate.js';
import { receivingRepository } from './receiving.repository.js';
import { RunStarter, type StartOutcome } from './run-starter.js';
import type { DeliveryRow } from './webhook.record.js';
import { runStartsDone } from './webhook.metrics.js';

export type StartableDelivery = Pick<
  DeliveryRow,
  'id' | 'webhook_id' | 'workflow_id' | 'tenant_id' | 'environment_id' | 'scope_id' | 'run_input' | 'run_id'
> & {
  /** Announce it to webhook triggers as well (`webhook.delivery.received`). */
  fires_triggers?: boolean | null;
  received_at?: Date;
};

interface TenantResults {
  tenantId: string;
  environmentId: string;
  /** Started, or refused for good: recorded as they are. */
  results: { id: string; error: string | null }[];
  /** Failed attempts that count towards WEBHOOK_START_MAX_ATTEMPTS. */
  failures: { id: string; error: string }[];
}

/** A delivery announced to triggers carries its request up to this size; a larger one goes without its body. */
const ANNOUNCED_REQUEST_BYTES = 256 * 1024;

/** Starts of one batch; big enough to share a record statement, small enough to start promptly. */
const BATCH = 32;
/** Beyond this many queued in memory, deliveries wait in the database for the reconciler. */
const MAX_QUEUED = 50_000;
const DRAIN_MS = 5000;
/** What the start request adds around a run input (envelope, trigger, ids): it must fit in one NATS message. */
const START_REQUEST_OVERHEAD_BYTES = 16 * 1024;

/** The largest run input a delivery may make, and the setting that makes it so. */
export interface RunInputLimit {
  bytes: number;
  setting: 'RUN_INPUT_LIMIT_BYTES' | 'NATS max_payload';
}

/**
 * Starts the runs of accepted deliveries behind the answers: the request path queues the
 * delivery (already committed, with its run id) and returns; batches of starts go to the run
 * service with at most WEBHOOK_START_CONCURRENCY in flight, and their outcomes are recorded one
 * statement per batch. A start that fails for now is tried again by the reconciler: unrecorded
 * while the run service does not answer, counted when it failed on this start (recorded as failed
 * after WEBHOOK_START_MAX_ATTEMPTS); one the run service refuses (workflow disabled or deleted) is
 * recorded with the reason at once. The run id is the idempotency key, so nothing here can start a run twice.
 */
@Injectable()
export class DeliveryStarter implements OnApplicationShutdown {
  private readonly logger = new Logger(DeliveryStarter.name);
  private readonly queue: StartableDelivery[] = [];
  /** Deliveries queued or being started here: the reconciler leaves them alone. */
  private readonly held = new Set<string>();
  private inFlight = 0;
  private readonly intake: IntakeRate;
  private idle: Promise<void> = Promise.resolve();
  private settleIdle: () => void = () => undefined;

  constructor(
    private readonly runs: RunStarter,
    private readonly db: TenantDb,
    private readonly bus: Bus,
    @Inject(WEBHOOK_CONFIG) private readonly config: WebhookConfig,
  ) {
    this.intake = new IntakeRate(config.WEBHOOK_BURST_RATE);
  }

  /**
   * The run service's limit, or less when the start request could not travel in one NATS message:
   * accepted, such a delivery's run could never start (the reconciler would try it in vain).
   */
  runInputLimit(): RunInputLimit {
    const carried = this.bus.maxPayload - START_REQUEST_OVERHEAD_BYTES;
    return carried < this.config.RUN_INPUT_LIMIT_BYTES
      ? { bytes: carried, setting: 'NATS max_payload' }
      : { bytes: this.config.RUN_INPUT_LIMIT_BYTES, setting: 'RUN_INPUT_LIMIT_BYTES' };
  }

  /** A delivery the receiving route has just accepted: counts towards a burst, and is queued. */
  accepted(delivery: StartableDelivery): void {
    this.intake.note();
    this.enqueue(delivery);
  }

  /** Queues the start of an accepted delivery's run (a full queue leaves it to the reconciler). */
  enqueue(delivery: StartableDelivery): void {
    if (this.held.has(delivery.id) || this.held.size >= MAX_QUEUED) return;
    this.held.add(delivery.id);
    this.queue.push(delivery);
    this.pump();
  }

  /** Starts one run now and records the outcome (sync mode, replay). */
  async startNow(delivery: StartableDelivery): Promise<StartOutcome> {
    const [outcome] = await this.startAll([delivery]);
    return outcome;
  }

  isHeld(deliveryId: string): boolean {
    return this.held.has(deliveryId);
  }

  /** Lets in-flight starts finish; what is still queued is in the database for the reconciler. */
  async onApplicationShutdown(): Promise<void> {
    this.queue.length = 0;
    await Promise.race([this.idle, new Promise((resolve) => setTimeout(resolve, DRAIN_MS).unref())]);
  }

  /**
   * While deliveries arrive in a burst, runs start WEBHOOK_BURST_START_CONCURRENCY at a time, so
   * the machine answers senders first (each run also costs its execution); once the burst is over
   * the backlog drains at WEBHOOK_START_CONCURRENCY. Re-read after every batch.
   */
  private pump(): void {
    const concurrency = this.intake.inBurst() ? this.config.WEBHOOK_BURST_START_CONCURRENCY : this.config.WEBHOOK_START_CONCURRENCY;
    const batches = Math.max(1, Math.ceil(concurrency / BATCH));
    while (this.inFlight < batches && this.queue.length > 0) {
      const batch = this.queue.splice(0, Math.min(BATCH, concurrency));
      if (this.inFlight++ === 0) this.idle = new Promise((resolve) => (this.settleIdle = resolve));
      void this.startAll(batch).finally(() => {
        for (const d of batch) this.held.delete(d.id);
        if (--this.inFlight === 0) this.settleIdle();
        this.pump();
      });
    }
  }

  private async startAll(batch: StartableDelivery[]): Promise<StartOutcome[]> {
    const outcomes = await Promise.all(batch.map((d) => this.startAndAnnounce(d)));
    runStartsDone(outcomes);
    const byTenant = new Map<string, TenantResults>();
    batch.forEach((d, i) => {
      const outcome = outcomes[i];
      // An outage is not recorded: the reconciler tries again, until WEBHOOK_START_GIVE_UP_MS.
      if (outcome.runId === null && !outcome.permanent && !outcome.counts) return;
      const key = `${d.tenant_id}/${d.environment_id}`;
      const group = byTenant.get(key) ?? { tenantId: d.tenant_id, environmentId: d.environment_id, results: [], failures: [] };
      if (outcome.runId === null && !outcome.permanent) group.failures.push({ id: d.id, error: outcome.error });
      else group.results.push({ id: d.id, error: outcome.error });
      byTenant.set(key, group);
    });
    for (const group of byTenant.values()) await this.record(group);
    return outcomes;
  }

  private async record({ tenantId, environmentId, results, failures }: TenantResults): Promise<void> {
    const ctx = { tenantId, environmentId, scopeId: null };
    try {
      if (results.length) await receivingRepository.recordStarts(this.db, ctx, results);
      if (failures.length) {
        this.logger.warn(`${failures.length} run starts failed (tried again, at most ${this.config.WEBHOOK_START_MAX_ATTEMPTS} times): ${failures[0].error}`);
        await receivingRepository.recordStartFailures(this.db, ctx, failures, this.config.WEBHOOK_START_MAX_ATTEMPTS);
      }
    } catch (error) {
      // The runs did start; the reconciler asks again and is answered with the same runs.
      this.logger.warn(`could not record ${results.length + failures.length} run starts: ${(error as Error).message}`);
    }
  }

  /** A delivery counts as started once its run started and, for a webhook with triggers, its announcement was stored. */
  private async startAndAnnounce(d: StartableDelivery): Promise<StartOutcome> {
    const outcome = await this.runs.start(d);
    if (!d.fires_triggers || (outcome.runId === null && !outcome.permanent)) return outcome;
    try {
      await this.bus.emitDurably(
        WebhookSubjects.deliveryReceived,
        this.announcement(d),
        messageContext(contextOf(d), { actor: `webhook:${d.webhook_id}` }),
        `delivery-${d.id}`,
      );
      return outcome;
    } catch (error) {
      this.logger.warn(`could not announce delivery ${d.id} to triggers (retried): ${(error as Error).message}`);
      return { runId: null, error: (error as Error).message, permanent: false };
    }
  }

  private announcement(d: StartableDelivery): WebhookDeliveryReceivedEvent {
    const request = d.run_input ?? {};
    const receivedAt = (d.received_at ?? new Date()).toISOString();
    if (Buffer.byteLength(JSON.stringify(request)) <= ANNOUNCED_REQUEST_BYTES) return { webhookId: d.webhook_id, deliveryId: d.id, request, receivedAt };
    return { webhookId: d.webhook_id, deliveryId: d.id, request: { ...request, body: null }, truncated: true, receivedAt };
  }
}

const contextOf = (d: StartableDelivery) => ({ tenantId: d.tenant_id, environmentId: d.environment_id, scopeId: d.scope_id });
