import type { Trigger, Webhook, Workflow } from '@platform-sdk/client';
import type { TriggerSpec, WebhookSpec, WorkflowSpec } from './workflow-files.js';

/**
 * The comparable form of each resource, with the platform's defaults filled in on both sides:
 * a file that leaves out what the platform would default compares equal to what the platform
 * answers, so pushing it again changes nothing, and `pull` can leave the defaults out.
 */
export interface WorkflowDefinition {
  description: string | null;
  status: 'active' | 'disabled';
  input_schema: Record<string, unknown> | null;
  settings: Record<string, unknown>;
  steps: unknown[];
}

export interface TriggerDefinition {
  type: string;
  enabled: boolean;
  input: unknown;
  schedule: Record<string, unknown> | null;
  event: Record<string, unknown> | null;
  /** The webhook's name (webhook triggers), not its id, which differs between tenants. */
  webhook: string | null;
}

export interface WebhookDefinition {
  verification: { type: string; header?: string };
  response: { mode: string; timeout_ms?: number };
  enabled: boolean;
}

export function workflowFromSpec(spec: WorkflowSpec): WorkflowDefinition {
  return {
    description: spec.description ?? null,
    status: spec.status ?? 'active',
    input_schema: spec.input_schema ?? null,
    settings: spec.settings ?? {},
    steps: spec.steps,
  };
}

export function workflowFromRemote(w: Workflow): WorkflowDefinition {
  return {
    description: w.description,
    status: w.status,
    input_schema: w.input_schema,
    settings: w.settings ?? {},
    steps: w.steps,
  };
}

const instant = (v: unknown) => (typeof v === 'string' && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : (v ?? null));

function schedule(s: Record<string, unknown> | null | undefined): Record<string, unknown> | null {
  if (!s) return null;
  return {
    cron: s.cron ?? null,
    interval_seconds: s.interval_seconds ?? null,
    timezone: s.timezone ?? 'UTC',
    start_at: instant(s.start_at),
    end_at: instant(s.end_at),
    misfire: s.misfire ?? 'fire_once',
  };
}

const event = (e: Record<string, unknown> | null | undefined) => (e ? { type: e.type, filter: e.filter ?? null } : null);

export function triggerFromSpec(t: TriggerSpec): TriggerDefinition {
  return {
    type: t.type,
    enabled: t.enabled ?? true,
    input: t.input ?? null,
    schedule: t.type === 'schedule' ? schedule(t.schedule) : null,
    event: t.type === 'event' ? event(t.event) : null,
    webhook: t.type === 'webhook' ? (t.webhook ?? null) : null,
  };
}

export function triggerFromRemote(t: Trigger, webhookNames: Map<string, string>): TriggerDefinition {
  return {
    type: t.type,
    enabled: t.status === 'enabled',
    input: t.input ?? null,
    schedule: schedule(t.schedule),
    event: event(t.event),
    webhook: t.webhook_id ? (webhookNames.get(t.webhook_id) ?? t.webhook_id) : null,
  };
}

function response(r: { mode: string; timeout_ms?: number } | undefined): WebhookDefinition['response'] {
  if (r?.mode === 'sync') return { mode: 'sync', timeout_ms: r.timeout_ms ?? 10_000 };
  return { mode: r?.mode ?? 'async' };
}

function verification(v: { type: string; header?: string }): WebhookDefinition['verification'] {
  return v.type === 'token' ? { type: 'token', header: v.header ?? '' } : { type: v.type };
}

export function webhookFromSpec(w: WebhookSpec): WebhookDefinition {
  return { verification: verification(w.verification), response: response(w.response), enabled: w.enabled ?? true };
}

export function webhookFromRemote(w: Webhook): WebhookDefinition {
  return { verification: verification(w.verification), response: response(w.response), enabled: w.enabled };
}

/** Where two definitions differ: the path, what the platform holds and what the file says. */
export interface Difference {
  path: string;
  from: unknown;
  to: unknown;
}

/**
 * Where two JSON values differ (`steps[0].input.value`, `settings`), for the plan. Object keys
 * compare regardless of order; `undefined` and a missing key are the same.
 */
export function differences(a: unknown, b: unknown, path = ''): Difference[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return [{ path: path || '(all)', from: a, to: b }];
    return a.flatMap((item, i) => differences(item, b[i], `${path}[${i}]`));
  }
  const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    return keys.flatMap((k) => (a[k] === undefined && b[k] === undefined ? [] : differences(a[k], b[k], path ? `${path}.${k}` : k)));
  }
  return Object.is(a, b) ? [] : [{ path: path || '(all)', from: a, to: b }];
}
