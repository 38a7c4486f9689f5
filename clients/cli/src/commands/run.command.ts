import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { RunWaitTimeoutError, type Execution, type PlatformClient, type RunAccepted } from '@platform-sdk/client';
import { CommandFailed, EXIT, UsageError } from '../cli-errors.js';
import { command, handle, type Context } from '../command.js';
import { formatDuration, parseDuration } from '../duration.js';

/** How long `run --wait` has its start held: the run id is printed after at most this. */
const START_HOLD_SECONDS = 1;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A workflow id, or the id of the workflow with exactly that name. */
export async function resolveWorkflow(client: PlatformClient, ref: string, signal: AbortSignal): Promise<string> {
  if (UUID.test(ref)) return ref;
  const found = await client.workflows.findByName(ref, { signal });
  if (!found) throw new CommandFailed(`no workflow is named '${ref}'`);
  return found.id;
}

/**
 * A trigger or webhook id, or `<workflow name>/<its name>` as the workflow files declare it; the
 * name after the last `/` (workflow names may hold one).
 */
export async function resolveOwned(
  ref: string,
  kind: 'trigger' | 'webhook',
  list: (workflowId: string) => Promise<{ id: string; name: string }[]>,
  client: PlatformClient,
  signal: AbortSignal,
): Promise<string> {
  if (UUID.test(ref)) return ref;
  const slash = ref.lastIndexOf('/');
  if (slash <= 0) throw new UsageError(`'${ref}' is neither a ${kind} id nor <workflow name>/<${kind} name>`);
  const workflowId = await resolveWorkflow(client, ref.slice(0, slash), signal);
  const found = (await list(workflowId)).find((item) => item.name === ref.slice(slash + 1));
  if (!found) throw new CommandFailed(`workflow '${ref.slice(0, slash)}' has no ${kind} named '${ref.slice(slash + 1)}'`);
  return found.id;
}

/** `--input`: `@file.json`, `-` for stdin, or the JSON itself; an object. */
export function readInput(value: string | undefined): Record<string, unknown> {
  if (value === undefined) return {};
  let text = value;
  let source = '--input';
  if (value === '-' || value.startsWith('@')) {
    source = value === '-' ? 'stdin' : value.slice(1);
    try {
      text = readFileSync(value === '-' ? 0 : value.slice(1), 'utf8');
    } catch (error) {
      throw new UsageError(`--input: cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--input: ${source} is not JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError(`--input: ${source} must hold a JSON object`);
  return parsed as Record<string, unknown>;
}

/**
 * Follows a run to its end and reports it: the output as JSON on stdout and 0 when it
 * succeeded, the error on stderr and 1 otherwise (or when `timeout` passes first).
 */
export async function waitAndReport(ctx: Context, runId: string, timeout: number | undefined, finished?: Execution, started = Date.now()): Promise<number> {
  let execution: Execution;
  try {
    execution =
      finished ??
      (await ctx.client().runs.wait(runId, {
        timeout,
        signal: ctx.signal,
        onStatus: (e) => ctx.out.progress(`run ${runId}: ${e.status} (${formatDuration(Date.now() - started)})`),
      }));
  } catch (error) {
    if (!(error instanceof RunWaitTimeoutError)) throw error;
    if (ctx.out.json) ctx.out.printJson({ id: runId, status: error.lastStatus, waited_ms: timeout });
    ctx.out.error(`run ${runId} is still ${error.lastStatus} after ${formatDuration(timeout!)}; it goes on (platform executions get ${runId})`);
    return EXIT.failed;
  }
  if (ctx.out.json) ctx.out.printJson(execution);
  if (execution.status === 'succeeded') {
    if (!ctx.out.json) ctx.out.print(JSON.stringify(execution.output ?? null, null, 2));
    ctx.out.note(`run ${runId} succeeded in ${formatDuration(Date.now() - started)}`);
    return EXIT.ok;
  }
  const error = execution.error as { code?: string; message?: string; step_id?: string | null } | null;
  ctx.out.error(
    `run ${runId} ${execution.status}: ${error?.code ?? ''}${error?.message ? `: ${error.message}` : ''}${error?.step_id ? ` (step ${error.step_id})` : ''}`,
  );
  return EXIT.failed;
}

interface RunOptions {
  input?: string;
  wait?: boolean;
  timeout?: string;
  idempotencyKey?: string;
}

async function run(ctx: Context, options: RunOptions, workflow: string): Promise<number> {
  const input = readInput(options.input);
  const timeout = options.timeout === undefined ? undefined : parseDuration(options.timeout);
  if (timeout !== undefined && !options.wait) throw new UsageError('--timeout needs --wait');
  const client = ctx.client();
  const id = await resolveWorkflow(client, workflow, ctx.signal);
  const call = { idempotencyKey: options.idempotencyKey, signal: ctx.signal };
  if (!options.wait) {
    const started = await client.runs.start(id, input, call);
    ctx.out.result(started, () => started.run_id);
    return EXIT.ok;
  }
  const startedAt = Date.now();
  // The start is held a moment: a run that ends within it is one request, its end known at once.
  const hold = Math.min(START_HOLD_SECONDS, client.runs.holdSeconds(timeout ?? Infinity));
  const started: RunAccepted & { execution?: Execution } =
    hold >= 1 ? await client.runs.startHeld(id, input, hold, call) : await client.runs.start(id, input, call);
  ctx.out.note(`run ${started.run_id} started`);
  return waitAndReport(ctx, started.run_id, timeout, started.execution, startedAt);
}

export function runCommand(): Command {
  return command('run', 'Start a run of a workflow; with --wait, follow it and exit 0 when it succeeded, 1 when it failed, timed out or was cancelled', [
    'platform run "Double it" --input \'{"x": 21}\'            # prints the run id',
    'platform run "Double it" --input @input.json --wait       # prints the output as JSON',
    'platform run 0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e --input @input.json --wait --timeout 10m',
    'platform run nightly-report --wait --json | jq .status',
  ])
    .argument('<workflow>', "the workflow's name or id")
    .option('--input <json|@file|->', 'the run input: JSON, @file.json, or - for stdin (default {})')
    .option('--wait', 'follow the run to its end; print its output on stdout')
    .option('--timeout <duration>', 'with --wait: stop waiting after this long (30s, 10m, 1h) and exit 1; the run goes on')
    .option('--idempotency-key <key>', 'a retried command with the same key starts no second run (24 h)')
    .action(handle(run));
}
