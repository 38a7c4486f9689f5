import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { TenantDb } from '@platform/db';
import type { Subscription } from '@nats-io/transport-node';
import { Bus, TriggerSubjects, messageContext } from '@platform/messaging';
import { triggersRepository } from './triggers.repository.js';

/** A safety net only: every change of a trigger drops its tenant's entry at once (changed()). */
const ENTRY_TTL_MS = 60_000;
/** Tenants kept; the oldest entry goes first. */
const MAX_ENTRIES = 10_000;

interface Listening {
  eventTypes: ReadonlySet<string>;
  webhooks: ReadonlySet<string>;
}
interface Entry {
  loading: Promise<Listening>;
  at: number;
}
type TenantRef = { tenantId: string; environmentId: string };

/**
 * What each tenant's enabled triggers listen for (event types, webhooks), in memory: every run
 * that starts or ends and every webhook delivery reaches the event consumer, and most tenants
 * have no trigger for them, so asking the database each time cost a round trip per event. A
 * create, update, enable, disable or delete drops the tenant's entry here after its commit and,
 * through `trigger.listeners.changed`, in every other replica; the next event loads it again. An
 * event read between the commit and that drop is judged as if it happened before the change, like
 * an event that was already in flight.
 */
@Injectable()
export class ListenerCache implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ListenerCache.name);
  private readonly entries = new Map<string, Entry>();
  private subscription?: Subscription;

  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
  ) {}

  onModuleInit(): void {
    this.subscription = this.bus.subscribeAll(TriggerSubjects.listenersChanged, (event) => this.drop(event.data));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  /** Whether an enabled trigger of the tenant listens for this event type or this webhook's deliveries. */
  async listening(tenant: TenantRef, on: { eventType: string } | { webhookId: string }): Promise<boolean> {
    const listening = await this.entry(tenant);
    return 'webhookId' in on ? listening.webhooks.has(on.webhookId) : listening.eventTypes.has(on.eventType);
  }

  /** After the commit of a change to the tenant's triggers: dropped here and in every replica. */
  changed(tenant: TenantRef): void {
    this.drop(tenant);
    this.bus.emit(TriggerSubjects.listenersChanged, { tenantId: tenant.tenantId, environmentId: tenant.environmentId }, messageContext(tenant));
  }

  private drop(tenant: TenantRef): void {
    this.entries.delete(keyOf(tenant));
  }

  private entry(tenant: TenantRef): Promise<Listening> {
    const key = keyOf(tenant);
    const cached = this.entries.get(key);
    if (cached && Date.now() - cached.at < ENTRY_TTL_MS) return cached.loading;
    const entry: Entry = { at: Date.now(), loading: this.load(tenant) };
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, entry);
    // A failed load is not kept: the next event asks again.
    entry.loading.catch((error: unknown) => {
      if (this.entries.get(key) === entry) this.entries.delete(key);
      this.logger.debug(`could not load the triggers listening in ${key}: ${(error as Error).message}`);
    });
    return entry.loading;
  }

  private async load(tenant: TenantRef): Promise<Listening> {
    const rows = await triggersRepository.listeners(this.db, { ...tenant, scopeId: null });
    const eventTypes = new Set<string>();
    const webhooks = new Set<string>();
    for (const row of rows) {
      if (row.event_type) eventTypes.add(row.event_type);
      if (row.webhook_id) webhooks.add(row.webhook_id);
    }
    return { eventTypes, webhooks };
  }
}

const keyOf = (t: TenantRef) => `${t.tenantId}/${t.environmentId}`;
