import type { Command } from 'commander';
import type { ApiKey, CreatedApiKey, KeyFilters } from '@platform-sdk/client';
import { UsageError } from '../cli-errors.js';
import { command, group, handle, type Context } from '../command.js';
import { parseDuration } from '../duration.js';

function showCreated(ctx: Context, key: CreatedApiKey, verb: string): void {
  ctx.out.result(key, () => key.key);
  ctx.out.note(`${verb} key ${key.id} (${key.name}, ${key.mode}, scopes ${key.scopes.join(' ')}): the value above is shown only now, store it`);
}

async function create(
  ctx: Context,
  o: { name: string; scopes: string; type?: string; customer?: string; expiresAt?: string; dataPlane?: string },
): Promise<void> {
  const client = ctx.client();
  const scopes = o.scopes
    .split(/[,\s]+/)
    .map((s) => s.trim())
    .filter(Boolean);
  if (!scopes.length) throw new UsageError('--scopes: name at least one scope (e.g. workflows:write,automations:run)');
  const dataPlane = o.dataPlane ?? (await client.me({ signal: ctx.signal })).environment_id;
  const key = await client.keys.create(
    {
      name: o.name,
      type: (o.type ?? 'tenant') as 'tenant',
      scopes: scopes as never,
      data_plane_id: dataPlane,
      ...(o.customer ? { customer_id: o.customer } : {}),
      ...(o.expiresAt ? { expires_at: o.expiresAt } : {}),
    },
    { signal: ctx.signal },
  );
  showCreated(ctx, key, 'created');
}

async function list(ctx: Context, o: { status?: string; type?: string }): Promise<void> {
  const filters: KeyFilters = { status: o.status as KeyFilters['status'], type: o.type as KeyFilters['type'] };
  const keys = await ctx.client().keys.list(filters, { signal: ctx.signal, pageSize: 200 }).toArray();
  if (ctx.out.json) return ctx.out.printJson(keys);
  ctx.out.printTable(keys, [
    { header: 'id', value: (k: ApiKey) => k.id },
    { header: 'name', value: (k) => k.name },
    { header: 'prefix', value: (k) => k.prefix },
    { header: 'status', value: (k) => k.status },
    { header: 'type', value: (k) => k.type },
    { header: 'scopes', value: (k) => k.scopes.join(' ') },
    { header: 'last used', value: (k) => k.last_used_at },
    { header: 'expires', value: (k) => k.expires_at },
  ]);
}

async function rotate(ctx: Context, o: { transition?: string }, id: string): Promise<void> {
  const seconds = o.transition === undefined ? undefined : Math.round(parseDuration(o.transition, '--transition') / 1000);
  showCreated(ctx, await ctx.client().keys.rotate(id, { transitionPeriodSeconds: seconds, signal: ctx.signal }), `rotated ${id} into`);
}

async function revoke(ctx: Context, _o: unknown, id: string): Promise<void> {
  const key = await ctx.client().keys.revoke(id, { signal: ctx.signal });
  ctx.out.result(key, () => `key ${key.id} (${key.name}) ${key.status}`);
}

export function keysCommand(): Command {
  return group('keys', 'API keys of the data plane: create, list, rotate, revoke', [
    'platform keys create --name ci-deployer --scopes workflows:read,workflows:write,triggers:read,triggers:write,webhooks:read,webhooks:write,automations:run,executions:read',
    'platform keys rotate <key id> --transition 1d',
  ])
    .addCommand(
      command('create', "A new key; its value is printed once on stdout (the record with --json, value in 'key')", [
        'platform keys create --name ci-deployer --scopes workflows:write,automations:run,executions:read',
        'platform keys create --name runner --scopes automations:run --expires-at 2027-06-30T00:00:00Z --json',
      ])
        .requiredOption('--name <name>', 'what the key is for (1–100 characters)')
        .requiredOption('--scopes <list>', 'scopes, comma-separated (`*` for every one the caller holds)')
        .option('--type <tenant|customer>', 'tenant (default) or customer')
        .option('--customer <id>', 'the customer of a customer key')
        .option('--expires-at <iso>', 'when the key stops working (ISO 8601)')
        .option('--data-plane <id>', "the data plane (default: the calling key's own)")
        .action(handle(create)),
    )
    .addCommand(
      command('list', 'Keys, newest first (prefixes, never values)', ['platform keys list', 'platform keys list --status active --json'])
        .option('--status <status>', 'active, revoked, expired or rotated')
        .option('--type <type>', 'tenant or customer')
        .action(handle(list)),
    )
    .addCommand(
      command('rotate', 'A successor with the same scopes; the old key keeps working for --transition', [
        'platform keys rotate <key id>',
        'platform keys rotate <key id> --transition 1d',
      ])
        .argument('<id>', 'the key id')
        .option('--transition <duration>', 'how long the old key keeps working (default 0: it stops now; at most 30d)')
        .action(handle(rotate)),
    )
    .addCommand(command('revoke', 'Stop a key at once, everywhere', ['platform keys revoke <key id>']).argument('<id>', 'the key id').action(handle(revoke)));
}
