import { randomUUID } from 'node:crypto';
import { messageContext, type ContextOptions, type MessageContext, type TenantRef, type UsageFact, type UsageRecord } from '@platform/messaging';

/** A usage fact on its way out: what is published, to whom, and the request it came from. */
export interface PendingUsage {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  fact: UsageFact;
  requestId: string;
  actor: string | null;
}

/** One row of `<schema>.usage_outbox` (see usage-outbox.migration.ts). */
export interface UsageOutboxRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  event_id: string;
  metric: UsageFact['metric'];
  /** bigint: pg returns it as text. */
  quantity: string | number;
  key_mode: 'live' | 'test' | null;
  occurred_at: Date;
  request_id: string;
  actor: string | null;
}

/**
 * The fact as it will be written and published. Built where the usage happens, in its request's
 * context: the relay publishing it later carries the same request id, event id and time.
 */
export function pendingUsage(tenant: TenantRef, usage: UsageRecord, options: ContextOptions = {}): PendingUsage {
  const context = messageContext(tenant, options);
  return {
    tenantId: tenant.tenantId,
    environmentId: tenant.environmentId,
    scopeId: tenant.scopeId ?? null,
    fact: {
      eventId: usage.eventId ?? randomUUID(),
      metric: usage.metric,
      quantity: usage.quantity,
      occurredAt: (usage.occurredAt ?? new Date()).toISOString(),
      ...(usage.keyMode ? { keyMode: usage.keyMode } : {}),
    },
    requestId: context.requestId,
    actor: context.actor ?? null,
  };
}

/**
 * The row as a JSON object with the table's column names: what `insert ... select from
 * jsonb_to_recordset(...)` takes, here and in SQL functions that write the row themselves
 * (run.start_execution writes a run's fact with the run in one round trip).
 */
export function usageOutboxJson(usage: PendingUsage): Record<string, unknown> {
  return {
    tenant_id: usage.tenantId,
    environment_id: usage.environmentId,
    scope_id: usage.scopeId,
    event_id: usage.fact.eventId,
    metric: usage.fact.metric,
    quantity: usage.fact.quantity,
    key_mode: usage.fact.keyMode ?? null,
    occurred_at: usage.fact.occurredAt,
    request_id: usage.requestId,
    actor: usage.actor,
  };
}

export function fromOutboxRow(row: UsageOutboxRow): PendingUsage {
  return {
    tenantId: row.tenant_id,
    environmentId: row.environment_id,
    scopeId: row.scope_id,
    fact: {
      eventId: row.event_id,
      metric: row.metric,
      quantity: Number(row.quantity),
      occurredAt: new Date(row.occurred_at).toISOString(),
      ...(row.key_mode ? { keyMode: row.key_mode } : {}),
    },
    requestId: row.request_id,
    actor: row.actor,
  };
}

/** The envelope context the fact is published with: its tenant and customer, its request and actor. */
export function usageContext(usage: PendingUsage): MessageContext {
  return messageContext(
    { tenantId: usage.tenantId, environmentId: usage.environmentId, scopeId: usage.scopeId },
    { requestId: usage.requestId, ...(usage.actor ? { actor: usage.actor } : {}) },
  );
}
