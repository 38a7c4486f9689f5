import type { Command } from 'commander';
import type { DeliveryFilters, Webhook, WebhookDelivery } from '@platform-sdk/client';
import { UsageError } from '../cli-errors.js';
import { command, group, handle, type Context } from '../command.js';
import { resolveOwned, resolveWorkflow } from './run.command.js';

async function list(ctx: Context, o: { workflow?: string }): Promise<void> {
  const client = ctx.client();
  const workflowId = o.workflow ? await resolveWorkflow(client, o.workflow, ctx.signal) : undefined;
  const hooks = await client.webhooks.list({ workflow_id: workflowId }, { signal: ctx.signal, pageSize: 200 }).toArray();
  if (ctx.out.json) return ctx.out.printJson(hooks);
  ctx.out.printTable(hooks, [
    { header: 'id', value: (w: Webhook) => w.id },
    { header: 'name', value: (w) => w.name },
    { header: 'enabled', value: (w) => w.enabled },
    { header: 'verification', value: (w) => w.verification.type },
    { header: 'mode', value: (w) => w.response.mode },
    { header: 'url', value: (w) => w.url },
  ]);
}

async function logs(ctx: Context, o: { outcome?: string; limit?: string }, ref: string): Promise<void> {
  const client = ctx.client();
  const id = await resolveOwned(ref, 'webhook', (workflow_id) => client.webhooks.list({ workflow_id }, { signal: ctx.signal }).toArray(), client, ctx.signal);
  const limit = o.limit === undefined ? 20 : Number(o.limit);
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError(`--limit: '${o.limit}' is not a positive whole number`);
  const filters: DeliveryFilters = { outcome: o.outcome as DeliveryFilters['outcome'] };
  const deliveries = await ctx
    .client()
    .webhooks.logs(id, filters, { signal: ctx.signal, pageSize: Math.min(limit, 200) })
    .toArray(limit);
  if (ctx.out.json) return ctx.out.printJson(deliveries);
  ctx.out.printTable(deliveries, [
    { header: 'received', value: (d: WebhookDelivery) => d.received_at },
    { header: 'outcome', value: (d) => d.outcome },
    { header: 'status', value: (d) => d.status_code },
    { header: 'run', value: (d) => d.run_id },
    { header: 'reason', value: (d) => d.reason },
    { header: 'body', value: (d) => d.body },
  ]);
}

export function webhooksCommand(): Command {
  return group('webhooks', 'Inbound webhooks and their deliveries (declare webhooks in workflow files to create them)', [
    'platform webhooks list',
    'platform webhooks logs <webhook id> --outcome rejected',
  ])
    .addCommand(
      command('list', 'Webhooks of the data plane', ['platform webhooks list', 'platform webhooks list --workflow "Stripe events" --json'])
        .option('--workflow <name|id>', 'only webhooks of this workflow')
        .action(handle(list)),
    )
    .addCommand(
      command('logs', "A webhook's deliveries, newest first", [
        'platform webhooks logs <webhook id>',
        'platform webhooks logs "Stripe events/inbound" --outcome rejected --limit 100 --json',
      ])
        .argument('<webhook>', 'the webhook id, or <workflow name>/<webhook name>')
        .option('--outcome <outcome>', 'accepted, duplicate or rejected')
        .option('--limit <n>', 'at most this many (default 20)')
        .action(handle(logs)),
    );
}
