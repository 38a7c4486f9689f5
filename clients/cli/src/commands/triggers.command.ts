import type { Command } from 'commander';
import type { Trigger } from '@platform-sdk/client';
import { command, group, handle, type Context } from '../command.js';
import { resolveOwned, resolveWorkflow } from './run.command.js';

async function list(ctx: Context, o: { workflow?: string }): Promise<void> {
  const client = ctx.client();
  const workflowId = o.workflow ? await resolveWorkflow(client, o.workflow, ctx.signal) : undefined;
  const triggers = await client.triggers.list({ workflow_id: workflowId }, { signal: ctx.signal, pageSize: 200 }).toArray();
  if (ctx.out.json) return ctx.out.printJson(triggers);
  ctx.out.printTable(triggers, [
    { header: 'id', value: (t: Trigger) => t.id },
    { header: 'name', value: (t) => t.name },
    { header: 'type', value: (t) => t.type },
    { header: 'status', value: (t) => t.status },
    { header: 'workflow', value: (t) => t.workflow_id },
    { header: 'next fire', value: (t) => t.next_fire_at },
  ]);
}

const toggle = (enable: boolean) => async (ctx: Context, _o: unknown, ref: string) => {
  const client = ctx.client();
  const id = await resolveOwned(ref, 'trigger', (workflow_id) => client.triggers.list({ workflow_id }, { signal: ctx.signal }).toArray(), client, ctx.signal);
  const trigger = enable ? await client.triggers.enable(id, { signal: ctx.signal }) : await client.triggers.disable(id, { signal: ctx.signal });
  ctx.out.result(trigger, () => `trigger ${trigger.id} (${trigger.name}) ${trigger.status}${trigger.next_fire_at ? `, next at ${trigger.next_fire_at}` : ''}`);
};

export function triggersCommand(): Command {
  return group('triggers', 'Schedules, event and webhook triggers: list, enable, disable (declare them in workflow files to create them)', [
    'platform triggers list --workflow nightly-report',
    'platform triggers disable "Nightly report/nightly"',
  ])
    .addCommand(
      command('list', 'Triggers of the data plane', ['platform triggers list', 'platform triggers list --workflow "Double it" --json'])
        .option('--workflow <name|id>', 'only triggers of this workflow')
        .action(handle(list)),
    )
    .addCommand(
      command('enable', 'Turn a trigger on, at once on every replica', [
        'platform triggers enable <trigger id>',
        'platform triggers enable "Nightly report/nightly"',
      ])
        .argument('<trigger>', 'the trigger id, or <workflow name>/<trigger name>')
        .action(handle(toggle(true))),
    )
    .addCommand(
      command('disable', 'Turn a trigger off, at once', ['platform triggers disable <trigger id>', 'platform triggers disable "Nightly report/nightly"'])
        .argument('<trigger>', 'the trigger id, or <workflow name>/<trigger name>')
        .action(handle(toggle(false))),
    );
}
