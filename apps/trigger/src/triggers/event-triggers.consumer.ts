import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { jetstream, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { countIo, newId, runInRequestContext } from '@platform/common';
import { TenantDb } from '@platform/db';
import {
  NATS_CONNECTION,
  TRIGGER_EVENTS_QUEUE,
  ensureWorkQueue,
  hasTenant,
  namespacedQueue,
  retryDelayMs,
  type MessageContext,
  type TenantMessageContext,
} from '@platform/messaging';
import { eventDocument, filterMatches, mapInput } from './input-mapper.js';
import { ListenerCache } from './listener.cache.js';
import { readPlatformEvent, type PlatformEvent } from './platform-events.js';
import type { TriggerExecutionRow, TriggerRow } from './trigger.record.js';
import { TriggerRuns } from './trigger-runs.js';
import { executionsRepository, triggersRepository } from './triggers.repository.js';

@Injectable()
export class EventTriggersConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventTriggersConsumer.name);
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly db: TenantDb,
    private readonly runs: TriggerRuns,
    private readonly listeners: ListenerCache,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, TRIGGER_EVENTS_QUEUE);
    const spec = namespacedQueue(TRIGGER_EVENTS_QUEUE);
    const consumer = await jetstream(this.nc).consumers.get(spec.stream, spec.consumer);
    this.messages = await consumer.consume({ max_messages: 32 });
    const messages = this.messages;
    this.loop = (async () => {
      for await (const msg of messages) void this.process(msg);
    })();
  }

  async onModuleDestroy(): Promise<void> {
    await this.messages?.close();
    await this.loop?.catch(() => undefined);
  }

  private async process(msg: JsMsg): Promise<void> {
    let parsed: { pattern?: string; data?: { context?: MessageContext; data?: unknown } };
    let event: PlatformEvent | undefined;
    try {
      parsed = JSON.parse(this.decoder.decode(msg.data)) as typeof parsed;
      event = readPlatformEvent(parsed.pattern ?? '', parsed.data?.data);
    } catch {
      countIo('js.deliveries');
      countIo('js.acks');
      msg.ack(); // Not an event we can read: redelivering cannot fix it.
      return;
    }
    const context = parsed.data?.context;
    // Each delivery ends in one ack or nak; counted (tests only) for the request that caused the event.
    countIo('js.deliveries', 1, context?.requestId);
    countIo('js.acks', 1, context?.requestId);
    if (!context || !hasTenant(context) || !event) {
      msg.ack();
      return;
    }
    // In the event's request context: its log lines and the runs it starts carry the request id.
    await runInRequestContext({ requestId: context.requestId, actor: context.actor }, () => this.evaluate(msg, context, event));
  }

  private async evaluate(msg: JsMsg, context: TenantMessageContext, event: PlatformEvent): Promise<void> {
    try {
      const tenant = { tenantId: context.tenantId, environmentId: context.environmentId };
      // Most events have no trigger listening: the tenant's listeners, kept in memory, say so.
      if (!(await this.listeners.listening(tenant, event.kind === 'event' ? { eventType: event.type } : { webhookId: event.webhookId }))) {
        msg.ack();
        return;
      }
      const claimed = await this.claim(tenant, context.scopeId ?? null, event);
      await Promise.all(claimed.map((e) => this.runs.start(e, event.kind)));
      msg.ack();
    } catch (error) {
      this.logger.error(`event trigger evaluation failed: ${(error as Error).message}`);
      msg.nak(retryDelayMs(msg.info.deliveryCount));
    }
  }

  /**
   * `eventScope` is the customer the event happened for (null: the tenant's own). A tenant-wide
   * trigger sees every event of its environment; a customer's trigger only its own customer's,
   * or it would hand other customers' runs, files and tasks to that customer's workflow.
   */
  private claim(tenant: { tenantId: string; environmentId: string }, eventScope: string | null, event: PlatformEvent): Promise<TriggerExecutionRow[]> {
    return this.db.run({ ...tenant, scopeId: null }, async (m) => {
      const triggers =
        event.kind === 'event' ? await triggersRepository.eventTriggers(m, event.type) : await triggersRepository.webhookTriggers(m, event.webhookId);
      const claimed: TriggerExecutionRow[] = [];
      for (const trigger of triggers) {
        if (trigger.scope_id !== null && trigger.scope_id !== eventScope) continue;
        const firing = await this.firing(trigger, event);
        if (!firing) continue;
        const row = await executionsRepository.claim(m, {
          tenantId: trigger.tenant_id,
          environmentId: trigger.environment_id,
          scopeId: trigger.scope_id,
          id: newId(),
          triggerId: trigger.id,
          workflowId: trigger.workflow_id,
          fireKey: event.key,
          scheduledFor: event.at,
          runInput: firing.runInput,
          status: firing.error ? 'failed' : 'pending',
          error: firing.error,
        });
        if (row && row.status === 'pending') claimed.push(row);
      }
      return claimed;
    });
  }

  /** Whether the trigger fires on the event, and with what input; undefined when it does not fire. */
  private async firing(trigger: TriggerRow, event: PlatformEvent): Promise<{ runInput: Record<string, unknown> | null; error: string | null } | undefined> {
    let context: Record<string, unknown>;
    if (event.kind === 'event') {
      // A trigger never fires on its own workflow's runs: that would feed itself forever.
      if (trigger.workflow_id === event.sourceWorkflowId) return undefined;
      // One document for the filter and the input (eventDocument).
      context = eventDocument(trigger, event.payload);
      if (!(await filterMatches(trigger.event_filter, context))) return undefined;
    } else {
      if (event.truncated) return { runInput: null, error: 'the delivery body was too large to hand to triggers' };
      // No mapping: the run gets the request, as the webhook's own workflow does.
      if (trigger.input === null) return { runInput: event.request, error: null };
      context = { trigger: { id: trigger.id, name: trigger.name, type: 'webhook' }, request: event.request };
    }
    try {
      return { runInput: await mapInput(trigger.input, context), error: null };
    } catch (e) {
      return { runInput: null, error: `input expression failed: ${(e as Error).message}` };
    }
  }
}
