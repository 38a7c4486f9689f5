import type { Command } from 'commander';
import { isFinal, type ExecutionFilters, type ExecutionLog, type LogFilters } from '@platform-sdk/client';
import { EXIT, UsageError } from '../cli-errors.js';
import { command, group, handle, type Context } from '../command.js';
import { formatDuration, parseDuration } from '../duration.js';
import { resolveWorkflow, waitAndReport } from './run.command.js';

const took = (e: { started_at?: string | null; finished_at?: string | null }) =>
  e.started_at && e.finished_at ? formatDuration(Date.parse(e.finished_at) - Date.parse(e.started_at)) : null;

function positive(value: string | undefined, option: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${option}: '${value}' is not a positive whole number`);
  return n;
}

async function list(ctx: Context, o: { workflow?: string; status?: string; trigger?: string; limit?: string }): Promise<void> {
  const client = ctx.client();
  const limit = positive(o.limit, '--limit', 20);
  const filters: ExecutionFilters = {
    workflow_id: o.workflow ? await resolveWorkflow(client, o.workflow, ctx.signal) : undefined,
    status: o.status as ExecutionFilters['status'],
    trigger_type: o.trigger as ExecutionFilters['trigger_type'],
  };
  const rows = await client.executions.list(filters, { signal: ctx.signal, pageSize: Math.min(limit, 200) }).toArray(limit);
  if (ctx.out.json) return ctx.out.printJson(rows);
  ctx.out.printTable(rows, [
    { header: 'id', value: (e) => e.id },
    { header: 'status', value: (e) => e.status },
    { header: 'workflow', value: (e) => `${e.workflow_id} v${e.workflow_version}` },
    { header: 'trigger', value: (e) => e.trigger.type },
    { header: 'created', value: (e) => e.created_at },
    { header: 'took', value: took },
  ]);
}

async function get(ctx: Context, _o: unknown, id: string): Promise<void> {
  const e = await ctx.client().executions.get(id, { signal: ctx.signal });
  if (ctx.out.json) return ctx.out.printJson(e);
  const error = e.error as { code?: string; message?: string } | null;
  ctx.out.print(
    [
      `id          ${e.id}`,
      `workflow    ${e.workflow_id} (version ${e.workflow_version})`,
      `status      ${e.status}${error ? `: ${error.code}: ${error.message}` : ''}`,
      `trigger     ${e.trigger.type}${e.trigger.id ? ` ${e.trigger.id}` : ''}`,
      `created     ${e.created_at}${took(e) ? `   took ${took(e)}` : ''}`,
      `input       ${JSON.stringify(e.input)}`,
      `output      ${JSON.stringify(e.output ?? null)}`,
      '',
    ].join('\n'),
  );
  ctx.out.printTable(e.steps, [
    { header: 'path', value: (s) => s.path },
    { header: 'type', value: (s) => s.type },
    { header: 'status', value: (s) => s.status },
    { header: 'attempt', value: (s) => s.attempt },
    { header: 'error', value: (s) => (s.error ? `${(s.error as { code?: string }).code}: ${(s.error as { message?: string }).message}` : null) },
  ]);
}

const logLine = (l: ExecutionLog) => `${l.created_at}  ${l.level.padEnd(5)}  ${(l.step_id ?? '-').padEnd(16)}  ${l.message}`;

async function logs(ctx: Context, o: { follow?: boolean; level?: string; step?: string }, id: string): Promise<number> {
  const client = ctx.client();
  const filters: LogFilters = { level: o.level as LogFilters['level'], step_id: o.step };
  const show = (l: ExecutionLog) => (ctx.out.json ? ctx.out.print(JSON.stringify(l)) : ctx.out.print(logLine(l)));
  if (!o.follow) {
    for await (const line of client.executions.logs(id, filters, { signal: ctx.signal, pageSize: 200 })) show(line);
    return EXIT.ok;
  }
  // Lines as they come (JSON Lines with --json), then the run's end decides the exit code.
  const follow = client.executions.follow(id, filters, { signal: ctx.signal });
  let next = await follow.next();
  while (!next.done) {
    show(next.value);
    ctx.out.progress(`following run ${id}`);
    next = await follow.next();
  }
  const end = next.value;
  ctx.out.note(`run ${id} ${end.status}`);
  return end.status === 'succeeded' ? EXIT.ok : EXIT.failed;
}

async function cancel(ctx: Context, _o: unknown, id: string): Promise<void> {
  const e = await ctx.client().executions.cancel(id, { signal: ctx.signal });
  ctx.out.result(e, () => `run ${e.id} ${e.status}`);
}

async function retry(ctx: Context, o: { wait?: boolean; timeout?: string }, id: string): Promise<number> {
  const client = ctx.client();
  const timeout = o.timeout === undefined ? undefined : parseDuration(o.timeout);
  const before = await client.executions.get(id, { signal: ctx.signal });
  if (!isFinal(before.status)) throw new UsageError(`run ${id} is still ${before.status}: only a finished run can be retried`);
  const started = await client.runs.start(before.workflow_id, before.input, { signal: ctx.signal });
  if (!o.wait) {
    ctx.out.result({ ...started, retry_of: id }, () => started.run_id);
    return EXIT.ok;
  }
  ctx.out.note(`run ${started.run_id} started (a retry of ${id})`);
  return waitAndReport(ctx, started.run_id, timeout);
}

export function executionsCommand(): Command {
  const statuses = 'queued, running, waiting, succeeded, failed, cancelled, timed_out';
  return group('executions', 'Read, follow, cancel and retry runs', [
    'platform executions list --status failed',
    'platform executions logs <run id> --follow',
    'platform executions retry <run id> --wait',
  ])
    .addCommand(
      command('list', 'Runs, newest first', ['platform executions list', 'platform executions list --workflow "Double it" --status failed --limit 50 --json'])
        .option('--workflow <name|id>', 'only runs of this workflow')
        .option('--status <status>', `only runs in this status (${statuses})`)
        .option('--trigger <type>', 'only runs started this way (api, schedule, event, webhook, portal, subworkflow)')
        .option('--limit <n>', 'at most this many (default 20)')
        .action(handle(list)),
    )
    .addCommand(
      command('get', 'One run with its steps', ['platform executions get <run id>', 'platform executions get <run id> --json | jq .output'])
        .argument('<id>', 'the run id')
        .action(handle(get)),
    )
    .addCommand(
      command('logs', "A run's logs, oldest first; --follow prints them as they come until the run ends (exit 0 when it succeeded, 1 otherwise)", [
        'platform executions logs <run id>',
        'platform executions logs <run id> --follow',
        'platform executions logs <run id> --level error --json',
      ])
        .argument('<id>', 'the run id')
        .option('-f, --follow', 'keep printing until the run has finished')
        .option('--level <level>', 'only lines of this level (debug, info, warn, error)')
        .option('--step <id>', 'only lines of this step')
        .action(handle(logs)),
    )
    .addCommand(
      command('cancel', 'Cancel a queued, running or waiting run', ['platform executions cancel <run id>'])
        .argument('<id>', 'the run id')
        .action(handle(cancel)),
    )
    .addCommand(
      command('retry', "Start a new run of a finished run's workflow (its current version) with the same input", [
        'platform executions retry <run id>',
        'platform executions retry <run id> --wait --timeout 5m',
      ])
        .argument('<id>', 'the finished run to retry')
        .option('--wait', 'follow the new run; exit 0 when it succeeded, 1 otherwise')
        .option('--timeout <duration>', 'with --wait: stop waiting after this long')
        .action(handle(retry)),
    );
}
