import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import type { Trigger, Webhook, Workflow } from '@platform-sdk/client';
import { triggerFromRemote, webhookFromRemote } from './definitions.js';
import type { RemoteState } from './sync-plan.js';
import { listWorkflowFiles, type TriggerSpec, type WebhookSpec, type WorkflowSpec } from './workflow-files.js';

/** A file name from a workflow name: `Nightly report` → `nightly-report`. */
export function slug(name: string): string {
  return (
    name
      .normalize('NFKD')
      .replace(/[^\w\s-]/g, '')
      .trim()
      .toLowerCase()
      .replace(/[\s_]+/g, '-')
      .replace(/-+/g, '-')
      .slice(0, 80) || 'workflow'
  );
}

function triggerSpec(t: Trigger, webhookNames: Map<string, string>): TriggerSpec {
  const d = triggerFromRemote(t, webhookNames);
  const spec: TriggerSpec = { name: t.name, type: d.type as TriggerSpec['type'] };
  if (!d.enabled) spec.enabled = false;
  if (d.schedule) {
    const s = d.schedule;
    spec.schedule = Object.fromEntries(
      Object.entries(s).filter(([k, v]) => v !== null && !(k === 'timezone' && v === 'UTC') && !(k === 'misfire' && v === 'fire_once')),
    );
  }
  if (d.event) spec.event = d.event.filter === null ? { type: d.event.type } : d.event;
  if (d.webhook) spec.webhook = d.webhook;
  if (d.input !== null) spec.input = d.input as TriggerSpec['input'];
  return spec;
}

function webhookSpec(w: Webhook): WebhookSpec {
  const d = webhookFromRemote(w);
  return {
    name: w.name,
    verification: d.verification,
    ...(d.response.mode === 'async' ? {} : { response: d.response }),
    ...(d.enabled ? {} : { enabled: false }),
  };
}

/** The file form of a workflow: what `push` reads, defaults left out. */
export function workflowSpec(w: Workflow, remote: RemoteState): WorkflowSpec {
  const webhookNames = new Map(remote.webhooks.map((h) => [h.id, h.name]));
  const spec = { name: w.name } as WorkflowSpec;
  if (w.description !== null) spec.description = w.description;
  if (w.status !== 'active') spec.status = w.status;
  if (w.input_schema !== null) spec.input_schema = w.input_schema;
  const settings = (w.settings ?? {}) as Record<string, unknown>;
  if (Object.keys(settings).length) spec.settings = settings;
  spec.steps = w.steps;
  const webhooks = remote.webhooks.filter((h) => h.workflow_id === w.id).map(webhookSpec);
  if (webhooks.length) spec.webhooks = webhooks;
  const triggers = remote.triggers.filter((t) => t.workflow_id === w.id).map((t) => triggerSpec(t, webhookNames));
  if (triggers.length) spec.triggers = triggers;
  return spec;
}

/** The workflow name each file of the folder holds (unreadable files are left alone). */
function existingFiles(dir: string): Map<string, { file: string; format: 'yaml' | 'json' }> {
  const map = new Map<string, { file: string; format: 'yaml' | 'json' }>();
  if (!existsSync(dir)) return map;
  for (const f of listWorkflowFiles(dir)) {
    try {
      // YAML reads JSON too.
      const name = (parse(readFileSync(f.file, 'utf8')) as { name?: unknown } | null)?.name;
      if (typeof name === 'string') map.set(name, f);
    } catch {
      // Not readable: a new file is written beside it.
    }
  }
  return map;
}

export interface Pulled {
  name: string;
  file: string;
  written: boolean;
}

/**
 * Writes each workflow into `dir`, over the file that already holds it (matched by name, its
 * format kept), else into `<slug>.<format>`. A file whose content would not change is left alone.
 */
export function writeWorkflows(dir: string, remote: RemoteState, format: 'yaml' | 'json'): Pulled[] {
  mkdirSync(dir, { recursive: true });
  const existing = existingFiles(dir);
  const taken = new Set([...existing.values()].map((f) => f.file));
  return remote.workflows.map((w) => {
    const spec = workflowSpec(w, remote);
    let target = existing.get(w.name);
    if (!target) {
      let file = join(dir, `${slug(w.name)}.${format}`);
      for (let n = 2; taken.has(file) || existsSync(file); n += 1) file = join(dir, `${slug(w.name)}-${n}.${format}`);
      taken.add(file);
      target = { file, format };
    }
    const text = target.format === 'json' ? `${JSON.stringify(spec, null, 2)}\n` : stringify(spec, { lineWidth: 0 });
    const written = !existsSync(target.file) || readFileSync(target.file, 'utf8') !== text;
    if (written) writeFileSync(target.file, text);
    return { name: w.name, file: target.file, written };
  });
}
