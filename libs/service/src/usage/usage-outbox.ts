import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SystemDb, TenantDb, tenantContextKey } from '@platform/db';
import { USAGE_BATCH_MAX, UsageMeter, publishFailure, type ContextOptions, type TenantRef, type UsageRecord } from '@platform/messaging';
import { fromOutboxRow, pendingUsage, usageContext, type PendingUsage } from './pending-usage.js';
import { usageOutboxRepository as outbox, type UsagePublishFailure } from './usage-outbox.repository.js';
import { watchOutboxBacklog } from '../metrics/outbox.metrics.js';

export interface UsageOutboxOptions {
  /** The service's own schema, whose `usage_outbox` table (usageOutboxMigration) holds its facts. */
  schema: string;
  /** How old a row must be before the relay takes it: younger ones are still being published after their commit. */
  graceMs: number;
  /** How old a row may be and still be retried after a failed publish; older, it is given up (USAGE_OUTBOX_GIVE_UP_MS). */
  giveUpMs: number;
}

export const USAGE_OUTBOX_OPTIONS = Symbol('USAGE_OUTBOX_OPTIONS');

/**
 * Writes facts to `<schema>.usage_outbox` in the caller's transaction without a running service
 * (an admin command on the database): the service's relay publishes them once it runs.
 * Inside a service, use UsageOutbox.add, which also knows the schema.
 */
export function writeUsageFacts(m: EntityManager, schema: string, facts: PendingUsage[]): Promise<void> {
  return outbox.insert(m, schema, facts);
}

/** Rows the relay takes per transaction. */
const RELAY_BATCH = 200;
/** Deletions of published facts are written together, at most this long after the ack. */
const DELETE_DELAY_MS = 20;

/**
 * How a service reports metered usage without losing it (a transactional outbox): the fact is a
 * row written in the transaction of the change it meters (`add`, with that transaction's manager),
 * so it exists exactly when the change does. After the commit it is published at once (`publish`,
 * best effort) and its row deleted on the JetStream ack; what a failed publish, a NATS outage or a
 * crash leaves behind, the relay (UsageOutboxRelayJob) publishes a few seconds later. A fact keeps
 * its event id throughout, so a second publish is dropped by the stream (message id) or counted
 * once by the subscription service.
 */
@Injectable()
export class UsageOutbox implements OnModuleDestroy {
  private readonly logger = new Logger(UsageOutbox.name);
  private stored: PendingUsage[] = [];
  /** Facts handed to publish in this turn of the event loop, sent together at its end. */
  private outgoing: PendingUsage[] = [];
  private deleting?: NodeJS.Timeout;

  constructor(
    private readonly meter: UsageMeter,
    private readonly db: TenantDb,
    private readonly system: SystemDb,
    @Inject(USAGE_OUTBOX_OPTIONS) private readonly options: UsageOutboxOptions,
  ) {
    watchOutboxBacklog(() => this.system.statement('usage outbox: backlog for the metrics', (m) => outbox.backlog(m, options.schema), 'debug'));
  }

  /** The fact to `add` and then `publish`, built in the request it belongs to. */
  fact(tenant: TenantRef, usage: UsageRecord, context: ContextOptions = {}): PendingUsage {
    return pendingUsage(tenant, usage, context);
  }

  /** Writes facts in the caller's transaction: `m` is the manager that commits the business change. */
  async add(m: EntityManager, facts: PendingUsage[]): Promise<void> {
    await outbox.insert(m, this.options.schema, facts);
  }

  /**
   * After the commit, never before: a fact of a rolled-back change must not go out. Never throws.
   * The facts given in one turn of the event loop go out together: those of one tenant context as
   * one batch (UsageMeter.publishBatch), a lone fact as itself.
   */
  publish(facts: PendingUsage[]): void {
    if (!facts.length) return;
    // The first facts of a turn schedule the send; the rest of the turn's join them.
    if (!this.outgoing.length) setImmediate(() => this.sendOutgoing());
    this.outgoing.push(...facts);
  }

  private sendOutgoing(): void {
    const facts = this.outgoing.splice(0, this.outgoing.length);
    const groups = new Map<string, PendingUsage[]>();
    for (const usage of facts) {
      const key = tenantContextKey(usage);
      const group = groups.get(key);
      if (group) group.push(usage);
      else groups.set(key, [usage]);
    }
    for (const group of groups.values())
      for (let i = 0; i < group.length; i += USAGE_BATCH_MAX) {
        const part = group.slice(i, i + USAGE_BATCH_MAX);
        const sent =
          part.length === 1
            ? this.meter.publish(part[0].fact, usageContext(part[0]))
            : this.meter.publishBatch(
                part.map((u) => u.fact),
                usageContext(part[0]),
              );
        sent.then(
          () => part.forEach((usage) => this.markStored(usage)),
          (error: unknown) =>
            this.logger.warn(
              `${part.length} usage fact(s) not published yet (the relay retries; first ${part[0].fact.eventId}): ${(error as Error)?.message ?? String(error)}`,
            ),
        );
      }
  }

  /**
   * Usage that has no transaction of its own to join (AI tokens after a provider call): the row
   * is written in a small transaction first, so a NATS outage loses nothing, then published.
   */
  async record(tenant: TenantRef, usage: UsageRecord): Promise<void> {
    const fact = this.fact(tenant, usage);
    await this.db.run(tenant, (m) => this.add(m, [fact]));
    this.publish([fact]);
  }

  /**
   * One relay pass: rows left behind are published in batches, each in a transaction that holds
   * them (FOR UPDATE SKIP LOCKED, so replicas share the work), deletes those JetStream stored and
   * records the failures (usageOutboxRepository.recordFailures): a fact NATS refused for good is
   * given up at once, one older than `giveUpMs` at its next failure; either leaves the scan and
   * is logged once at error. Stops at the first batch with a failure that may pass later (NATS
   * down: the next pass tries again); a refusal of some facts does not stop the others.
   */
  async relay(): Promise<number> {
    let total = 0;
    for (;;) {
      const { found, sent, retry } = await this.system.run('usage outbox: facts left behind', (m) => this.relayBatch(m), 'debug');
      total += sent;
      if (found < RELAY_BATCH || retry) break;
    }
    if (total) this.logger.log(`published ${total} usage fact(s) left in the outbox`);
    return total;
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.deleting);
    await this.deletePublished();
  }

  private async relayBatch(m: EntityManager): Promise<{ found: number; sent: number; retry: boolean }> {
    const { schema, graceMs, giveUpMs } = this.options;
    const rows = (await outbox.lockStale(m, schema, graceMs, RELAY_BATCH)).map(fromOutboxRow);
    const results = await Promise.allSettled(rows.map((usage) => this.meter.publish(usage.fact, usageContext(usage))));
    const sent: PendingUsage[] = [];
    const failures: UsagePublishFailure[] = [];
    results.forEach((result, i) => {
      if (result.status === 'fulfilled') return void sent.push(rows[i]);
      failures.push({ tenantId: rows[i].tenantId, eventId: rows[i].fact.eventId, ...publishFailure(result.reason) });
    });
    await outbox.remove(m, schema, sent);
    const recorded = await outbox.recordFailures(m, schema, failures, giveUpMs);
    for (const r of recorded.filter((f) => f.given_up))
      this.logger.error(
        `gave up publishing usage fact ${r.event_id} (tenant ${r.tenant_id}) after ${r.publish_attempts} attempt(s): ${r.publish_error}; ` +
          `it stays in ${schema}.usage_outbox with publish_failed_at, not billed`,
      );
    const kept = recorded.filter((f) => !f.given_up);
    if (kept.length) this.logger.warn(`${kept.length} usage fact(s) still not published (the relay retries): ${kept[0].publish_error}`);
    return { found: rows.length, sent: sent.length, retry: failures.some((f) => !f.permanent) };
  }

  private markStored(usage: PendingUsage): void {
    this.stored.push(usage);
    this.deleting ??= setTimeout(() => void this.deletePublished(), DELETE_DELAY_MS);
  }

  private async deletePublished(): Promise<void> {
    this.deleting = undefined;
    const facts = this.stored.splice(0, this.stored.length);
    if (!facts.length) return;
    // A row still there is only published again by the relay: the same event id, counted once.
    // One statement, so no transaction around it: one round trip per batch.
    await this.system
      .statement('usage outbox: facts published', (m) => outbox.remove(m, this.options.schema, facts), 'debug')
      .catch((error: unknown) => this.logger.warn(`could not delete ${facts.length} published usage fact(s): ${(error as Error).message}`));
  }
}
