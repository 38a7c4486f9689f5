import type { Trigger, Webhook, Workflow } from '@platform-sdk/client';
import {
  differences,
  type Difference,
  triggerFromRemote,
  triggerFromSpec,
  webhookFromRemote,
  webhookFromSpec,
  workflowFromRemote,
  workflowFromSpec,
} from './definitions.js';
import type { TriggerSpec, WebhookSpec, WorkflowFile } from './workflow-files.js';

export type Action = 'create' | 'update' | 'unchanged' | 'delete';
export type Kind = 'workflow' | 'webhook' | 'trigger';

/** One line of the plan. */
export interface Change {
  action: Action;
  kind: Kind;
  /** The workflow's name; `<workflow>/<name>` for a trigger or webhook. */
  name: string;
  workflow: string;
  file?: string;
  /** The platform's id of what exists already. */
  id?: string;
  /** Where an update differs (`steps[0].input.value`). */
  paths?: string[];
  /** Each difference of an update: what the platform holds, what the file says. */
  diff?: Difference[];
  /** A trigger whose type changed is deleted and made again. */
  recreate?: boolean;
  spec?: WorkflowFile | TriggerSpec | WebhookSpec;
}

/** What the platform holds now, every page of it. */
export interface RemoteState {
  workflows: Workflow[];
  triggers: Trigger[];
  webhooks: Webhook[];
}

export interface Plan {
  changes: Change[];
  /** Workflows on the platform that no file names, kept because --prune was not given. */
  kept: string[];
}

function byWorkflow<T extends { workflow_id: string }>(items: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) map.set(item.workflow_id, [...(map.get(item.workflow_id) ?? []), item]);
  return map;
}

function compare(found: unknown, wanted: unknown): { action: Action; paths?: string[]; diff?: Difference[] } {
  const diff = differences(found, wanted);
  return diff.length ? { action: 'update', paths: diff.map((d) => d.path), diff } : { action: 'unchanged' };
}

/**
 * What `push` does to make the platform hold what the folder declares: workflows matched by
 * name, their triggers and webhooks by name within the workflow. Nothing is deleted without
 * `prune`.
 */
export function planSync(files: WorkflowFile[], remote: RemoteState, prune: boolean): Plan {
  const workflows = new Map(remote.workflows.map((w) => [w.name, w]));
  const triggers = byWorkflow(remote.triggers);
  const webhooks = byWorkflow(remote.webhooks);
  const webhookNames = new Map(remote.webhooks.map((w) => [w.id, w.name]));
  const changes: Change[] = [];
  const declared = new Set(files.map((f) => f.spec.name));

  for (const file of files) {
    const { spec } = file;
    const existing = workflows.get(spec.name);
    const base = { workflow: spec.name, file: file.file };
    changes.push({
      ...base,
      kind: 'workflow',
      name: spec.name,
      id: existing?.id,
      spec: file,
      ...(existing ? compare(workflowFromRemote(existing), workflowFromSpec(spec)) : { action: 'create' }),
    });
    const ownHooks = new Map((existing ? (webhooks.get(existing.id) ?? []) : []).map((w) => [w.name, w]));
    for (const hook of spec.webhooks ?? []) {
      const found = ownHooks.get(hook.name);
      ownHooks.delete(hook.name);
      changes.push({
        ...base,
        kind: 'webhook',
        name: `${spec.name}/${hook.name}`,
        id: found?.id,
        spec: hook,
        ...(found ? compare(webhookFromRemote(found), webhookFromSpec(hook)) : { action: 'create' }),
      });
    }
    const ownTriggers = new Map((existing ? (triggers.get(existing.id) ?? []) : []).map((t) => [t.name, t]));
    for (const trigger of spec.triggers ?? []) {
      const found = ownTriggers.get(trigger.name);
      ownTriggers.delete(trigger.name);
      const change = found ? compare(triggerFromRemote(found, webhookNames), triggerFromSpec(trigger)) : { action: 'create' as const };
      changes.push({
        ...base,
        kind: 'trigger',
        name: `${spec.name}/${trigger.name}`,
        id: found?.id,
        spec: trigger,
        ...change,
        recreate: found && found.type !== trigger.type,
      });
    }
    if (prune) {
      for (const t of ownTriggers.values()) changes.push({ ...base, action: 'delete', kind: 'trigger', name: `${spec.name}/${t.name}`, id: t.id });
      for (const w of ownHooks.values()) changes.push({ ...base, action: 'delete', kind: 'webhook', name: `${spec.name}/${w.name}`, id: w.id });
    }
  }

  const kept: string[] = [];
  for (const w of remote.workflows) {
    if (declared.has(w.name)) continue;
    if (!prune) {
      kept.push(w.name);
      continue;
    }
    for (const t of triggers.get(w.id) ?? []) changes.push({ action: 'delete', kind: 'trigger', name: `${w.name}/${t.name}`, workflow: w.name, id: t.id });
    for (const h of webhooks.get(w.id) ?? []) changes.push({ action: 'delete', kind: 'webhook', name: `${w.name}/${h.name}`, workflow: w.name, id: h.id });
    changes.push({ action: 'delete', kind: 'workflow', name: w.name, workflow: w.name, id: w.id });
  }
  return { changes, kept };
}

export function summary(changes: Change[]): Record<Action, number> {
  const counts: Record<Action, number> = { create: 0, update: 0, unchanged: 0, delete: 0 };
  for (const c of changes) counts[c.action] += 1;
  return counts;
}
