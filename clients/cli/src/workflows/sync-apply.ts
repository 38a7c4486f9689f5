import type { CallOptions, PlatformClient, UpdateTriggerRequest, Webhook } from '@platform-sdk/client';
import type { Change, RemoteState } from './sync-plan.js';
import type { FileProblem, TriggerSpec, WebhookSpec, WorkflowFile } from './workflow-files.js';

/** Every workflow, trigger and webhook of the data plane. */
export async function loadRemote(client: PlatformClient, call: CallOptions): Promise<RemoteState> {
  const [workflows, triggers, webhooks] = await Promise.all([
    client.workflows.list({}, { ...call, pageSize: 200 }).toArray(),
    client.triggers.list({}, { ...call, pageSize: 200 }).toArray(),
    client.webhooks.list({}, { ...call, pageSize: 200 }).toArray(),
  ]);
  return { workflows, triggers, webhooks };
}

/** The platform's own check of each definition (steps, expressions, settings), as problems of the file. */
export async function validateOnPlatform(client: PlatformClient, files: WorkflowFile[], call: CallOptions): Promise<FileProblem[]> {
  // A few at a time: a folder of hundreds of files is not hundreds of requests at once.
  const results: FileProblem[][] = [];
  for (let i = 0; i < files.length; i += 8) {
    results.push(...(await Promise.all(files.slice(i, i + 8).map(check))));
  }
  return results.flat();

  async function check({ file, spec }: WorkflowFile): Promise<FileProblem[]> {
    const result = await client.workflows.validate({ steps: spec.steps as never, input_schema: spec.input_schema ?? undefined, settings: spec.settings }, call);
    return result.problems.map((p) => ({ file, path: p.path, message: p.step_id ? `[step ${p.step_id}] ${p.message}` : p.message }));
  }
}

/** What applying a change made: the id, and a webhook's secret, shown once. */
export interface Applied {
  change: Change;
  id?: string;
  secret?: string;
}

function definitionBody(file: WorkflowFile) {
  const { spec } = file;
  return {
    description: spec.description ?? null,
    input_schema: spec.input_schema ?? null,
    settings: spec.settings ?? {},
    steps: spec.steps as never,
  };
}

function webhookBody(w: WebhookSpec) {
  return { verification: w.verification as never, response: (w.response ?? { mode: 'async' }) as never, enabled: w.enabled ?? true };
}

function triggerBody(t: TriggerSpec, webhookIds: Map<string, string>): UpdateTriggerRequest {
  return {
    enabled: t.enabled ?? true,
    input: t.input ?? null,
    ...(t.type === 'schedule' ? { schedule: t.schedule as never } : {}),
    ...(t.type === 'event' ? { event: t.event as never } : {}),
    ...(t.type === 'webhook' ? { webhook_id: webhookIds.get(t.webhook!) } : {}),
  };
}

/**
 * Applies the plan in an order that never points at what does not exist yet: workflows, then
 * their webhooks, then triggers (which may name a webhook), then the deletions, triggers first.
 * Each change is one request; `onApplied` hears each as it is done.
 */
export async function applyPlan(
  client: PlatformClient,
  changes: Change[],
  remote: RemoteState,
  call: CallOptions,
  onApplied: (a: Applied) => void,
): Promise<Applied[]> {
  const applied: Applied[] = [];
  const done = (a: Applied) => {
    applied.push(a);
    onApplied(a);
  };
  const workflowIds = new Map(remote.workflows.map((w) => [w.name, w.id]));
  // A webhook trigger names its webhook; names resolve to the folder's webhooks first.
  const webhookIds = new Map(remote.webhooks.map((w: Webhook) => [w.name, w.id]));
  const pending = changes.filter((c) => c.action === 'create' || c.action === 'update');

  for (const c of pending.filter((c) => c.kind === 'workflow')) {
    const file = c.spec as WorkflowFile;
    if (c.action === 'create') {
      const { input_schema, ...rest } = definitionBody(file);
      const created = await client.workflows.create({ name: file.spec.name, ...rest, ...(input_schema ? { input_schema } : {}) }, call);
      if (file.spec.status === 'disabled') await client.workflows.update(created.id, { status: 'disabled' }, call);
      workflowIds.set(c.workflow, created.id);
      done({ change: c, id: created.id });
    } else {
      // One PATCH with every field: one new version, only because something differed.
      await client.workflows.update(c.id!, { ...definitionBody(file), status: file.spec.status ?? 'active' }, call);
      done({ change: c, id: c.id });
    }
  }
  for (const c of changes.filter((c) => c.kind === 'webhook' && c.spec)) {
    const spec = c.spec as WebhookSpec;
    if (c.action === 'create') {
      const created = await client.webhooks.create({ name: spec.name, workflow_id: workflowIds.get(c.workflow)!, ...webhookBody(spec) }, call);
      webhookIds.set(spec.name, created.id);
      done({ change: c, id: created.id, secret: created.secret });
    } else {
      webhookIds.set(spec.name, c.id!);
      if (c.action !== 'update') continue;
      const updated = await client.webhooks.update(c.id!, webhookBody(spec), call);
      done({ change: c, id: c.id, secret: updated.secret });
    }
  }
  for (const c of pending.filter((c) => c.kind === 'trigger')) {
    const spec = c.spec as TriggerSpec;
    const body = triggerBody(spec, webhookIds);
    if (c.action === 'update' && !c.recreate) {
      await client.triggers.update(c.id!, body, call);
      done({ change: c, id: c.id });
      continue;
    }
    if (c.recreate) await client.triggers.delete(c.id!, call);
    const created = await client.triggers.create({ ...body, name: spec.name, type: spec.type, workflow_id: workflowIds.get(c.workflow)! }, call);
    done({ change: c, id: created.id });
  }
  for (const kind of ['trigger', 'webhook', 'workflow'] as const) {
    for (const c of changes.filter((c) => c.action === 'delete' && c.kind === kind)) {
      if (kind === 'trigger') await client.triggers.delete(c.id!, call);
      else if (kind === 'webhook') await client.webhooks.delete(c.id!, call);
      else await client.workflows.delete(c.id!, call);
      done({ change: c, id: c.id });
    }
  }
  return applied;
}
