import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { jetstream, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { newId } from '@platform/common';
import { TenantDb } from '@platform/db';
import {
  ExecutionStatusEvent,
  NATS_CONNECTION,
  RunSubjects,
  TRIGGER_EVENTS_QUEUE,
  ensureWorkQueue,
  hasTenant,
  namespacedQueue,
  retryDelayMs,
  validatePayload,
  type MessageContext,
} from '@platform/messaging';
import { filterMatches, mapInput } from './input-mapper.js';
import type { TriggerExecutionRow } from './trigger.record.js';
import { TriggerRuns } from './trigger-runs.js';
import { executionsRepository, triggersRepository } from './triggers.repository.js';

/** Event subject (without namespace) → the event type triggers name. */
const EVENT_TYPE_OF: Record<string, string> = {
  [RunSubjects.executionStarted]: 'run.execution.started',
  [RunSubjects.executionCompleted]: 'run.execution.succeeded',
  [RunSubjects.executionFailed]: 'run.execution.failed',
  [RunSubjects.executionCancelled]: 'run.execution.cancelled',
  [RunSubjects.executionTimedOut]: 'run.execution.timed_out',
};

/**
 * Event triggers: consumes run status events from a JetStream stream (one durable consumer shared
 * by every replica), finds the enabled event triggers of the event's own tenant and environment
 * (a tenant transaction: RLS keeps other tenants' triggers out of sight), evaluates each filter,
 * and claims a trigger execution keyed by the event, so a redelivered event fires nothing twice.
 * The message is acknowledged only after the claims commit.
 */
@Injectable()
export class EventTriggersConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(EventTriggersConsumer.name);
  private messages?: ConsumerMessages;
  private loop?: Promise<void>;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly db: TenantDb,
    private readonly runs: TriggerRuns,
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
    let event: ExecutionStatusEvent;
    try {
      parsed = JSON.parse(this.decoder.decode(msg.data)) as typeof parsed;
      event = validatePayload(ExecutionStatusEvent, parsed.data?.data);
    } catch {
      msg.ack(); // Not an event we can read: redelivering cannot fix it.
      return;
    }
    const context = parsed.data?.context;
    const type = EVENT_TYPE_OF[parsed.pattern ?? ''];
    if (!context || !hasTenant(context) || !type) {
      msg.ack();
      return;
    }
    try {
      const claimed = await this.claim({ tenantId: context.tenantId, environmentId: context.environmentId }, type, event);
      await Promise.all(claimed.map((e) => this.runs.start(e, 'event')));
      msg.ack();
    } catch (error) {
      this.logger.error(`event trigger evaluation failed: ${(error as Error).message}`);
      msg.nak(retryDelayMs(msg.info.deliveryCount));
    }
  }

  private claim(tenant: { tenantId: string; environmentId: string }, type: string, event: ExecutionStatusEvent): Promise<TriggerExecutionRow[]> {
    const payload = {
      type,
      execution_id: event.executionId,
      workflow_id: event.workflowId,
      status: event.status,
      customer_id: event.customerId ?? null,
      error: event.error ?? null,
      at: event.at,
    };
    return this.db.run({ ...tenant, scopeId: null }, async (m) => {
      const triggers = await triggersRepository.eventTriggers(m, type);
      const claimed: TriggerExecutionRow[] = [];
      for (const trigger of triggers) {
        // A trigger never fires on its own workflow's runs: that would feed itself forever.
        if (trigger.workflow_id === event.workflowId) continue;
        if (!(await filterMatches(trigger.event_filter, payload))) continue;
        let runInput: Record<string, unknown> | null = null;
        let error: string | null = null;
        try {
          runInput = await mapInput(trigger.input, { trigger: { id: trigger.id, name: trigger.name, type: 'event' }, event: payload });
        } catch (e) {
          error = `input expression failed: ${(e as Error).message}`;
        }
        const row = await executionsRepository.claim(m, {
          tenantId: trigger.tenant_id,
          environmentId: trigger.environment_id,
          scopeId: trigger.scope_id,
          id: newId(),
          triggerId: trigger.id,
          workflowId: trigger.workflow_id,
          fireKey: `event:${type}:${event.executionId}`,
          scheduledFor: new Date(event.at),
          runInput,
          status: error ? 'failed' : 'pending',
          error,
        });
        if (row && row.status === 'pending') claimed.push(row);
      }
      return claimed;
    });
  }
}
