import type { Command } from 'commander';
import { EXIT, UsageError } from '../cli-errors.js';
import { command, group, handle, type Context } from '../command.js';
import { applyPlan, loadRemote, validateOnPlatform, type Applied } from './sync-apply.js';
import { planSync, summary, type Change } from './sync-plan.js';
import type { FileProblem } from './workflow-files.js';

function pullFormat(value: string | undefined): 'yaml' | 'json' {
  if (value === undefined || value === 'yaml' || value === 'json') return value ?? 'yaml';
  throw new UsageError(`--format: '${value}' is not yaml or json`);
}

const MARK = { create: '+', update: '~', unchanged: '=', delete: '-' } as const;

const SHOWN_DIFFERENCES = 5;

function brief(value: unknown): string {
  const text = value === undefined ? '(none)' : JSON.stringify(value);
  return text.length > 70 ? `${text.slice(0, 69)}…` : text;
}

/** One line per change; under an update, what differs, as `path: platform → file`. */
function planLines(c: Change): string[] {
  const head = `  ${MARK[c.action]} ${c.action.padEnd(9)}  ${c.kind.padEnd(8)}  ${c.name.padEnd(32)}  ${c.file ?? ''}${c.recreate ? ' (type changed: made again)' : ''}`;
  const diff = (c.diff ?? []).slice(0, SHOWN_DIFFERENCES).map((d) => `        ${d.path}: ${brief(d.from)} → ${brief(d.to)}`);
  const more = (c.diff?.length ?? 0) > SHOWN_DIFFERENCES ? [`        … and ${c.diff!.length - SHOWN_DIFFERENCES} more`] : [];
  return [head.trimEnd(), ...diff, ...more];
}

const changeJson = (c: Change) => ({
  action: c.action,
  kind: c.kind,
  name: c.name,
  workflow: c.workflow,
  file: c.file ?? null,
  id: c.id ?? null,
  paths: c.paths ?? [],
  diff: c.diff ?? [],
});

function reportProblems(ctx: Context, problems: FileProblem[]): number {
  if (ctx.out.json) ctx.out.printJson({ valid: false, problems });
  for (const p of problems) ctx.out.error(`${p.file}: ${p.path}: ${p.message}`);
  ctx.out.error(`${problems.length} problem(s) in ${new Set(problems.map((p) => p.file)).size} file(s); nothing was changed`);
  return EXIT.failed;
}

async function push(ctx: Context, options: { dryRun?: boolean; prune?: boolean }, dir: string): Promise<number> {
  // Loaded here, not at start-up: YAML parsing is most of what the CLI would load for every command.
  const { readWorkflowFolder } = await import('./workflow-files.js');
  const local = readWorkflowFolder(dir);
  if (local.problems.length) return reportProblems(ctx, local.problems);
  const client = ctx.client();
  const call = { signal: ctx.signal };
  ctx.out.progress(`checking ${local.files.length} workflow(s) with the platform`);
  const invalid = await validateOnPlatform(client, local.files, call);
  if (invalid.length) return reportProblems(ctx, invalid);
  const remote = await loadRemote(client, call);
  const plan = planSync(local.files, remote, options.prune === true);
  const counts = summary(plan.changes);
  const kept = plan.kept.length ? `; ${plan.kept.length} workflow(s) on the platform are not in ${dir} (kept: --prune deletes them)` : '';
  if (options.dryRun) {
    ctx.out.result({ dry_run: true, valid: true, changes: plan.changes.map(changeJson), summary: counts, kept: plan.kept }, () =>
      [
        ...plan.changes.flatMap(planLines),
        `Plan: ${counts.create} to create, ${counts.update} to update, ${counts.unchanged} unchanged, ${counts.delete} to delete${kept} (dry run: nothing changed)`,
      ].join('\n'),
    );
    return EXIT.ok;
  }
  const applied: Applied[] = [];
  try {
    await applyPlan(client, plan.changes, remote, call, (a) => {
      applied.push(a);
      ctx.out.progress(`${a.change.action} ${a.change.kind} ${a.change.name}`);
    });
  } catch (error) {
    // What was done stays done; say what, so the next push (which picks up from here) is no surprise.
    const pending = plan.changes.filter((c) => c.action !== 'unchanged').length;
    ctx.out.error(`push stopped after ${applied.length} of ${pending} change(s):`);
    for (const a of applied) ctx.out.error(`  done: ${a.change.action} ${a.change.kind} ${a.change.name}`);
    throw error;
  }
  const secrets = applied.filter((a) => a.secret).map((a) => ({ name: a.change.name, id: a.id, secret: a.secret }));
  ctx.out.result({ dry_run: false, valid: true, changes: plan.changes.map(changeJson), summary: counts, kept: plan.kept, secrets }, () =>
    [
      ...plan.changes.flatMap(planLines),
      // A pipeline's log is read by many: the secret goes to a terminal, or into --json for the caller to store.
      ...secrets.map((s) =>
        process.stdout.isTTY
          ? `  webhook ${s.name} (${s.id}) secret: ${s.secret}  (shown only now: store it)`
          : `  webhook ${s.name} (${s.id}): its secret is not printed into a log; push with --json to capture it, or rotate it (POST /webhooks/${s.id}/rotate-secret)`,
      ),
      `Pushed: ${counts.create} created, ${counts.update} updated, ${counts.unchanged} unchanged, ${counts.delete} deleted${kept}`,
    ].join('\n'),
  );
  return EXIT.ok;
}

async function pull(ctx: Context, options: { format?: string }, dir: string): Promise<number> {
  const format = pullFormat(options.format);
  const remote = await loadRemote(ctx.client(), { signal: ctx.signal });
  const { writeWorkflows } = await import('./pull.js');
  const pulled = writeWorkflows(dir, remote, format);
  ctx.out.result({ workflows: pulled }, () =>
    [
      ...pulled.map((p) => `  ${p.written ? 'wrote    ' : 'unchanged'}  ${p.name.padEnd(32)}  ${p.file}`),
      `Pulled ${pulled.length} workflow(s) into ${dir} (${pulled.filter((p) => p.written).length} file(s) written)`,
    ].join('\n'),
  );
  return EXIT.ok;
}

export function workflowsCommand(): Command {
  return group('workflows', 'Keep workflows, with their triggers and webhooks, in files: push a folder to the platform, pull it back', [
    'platform workflows push ./workflows --dry-run',
    'platform workflows push ./workflows --prune',
    'platform workflows pull ./workflows',
  ])
    .addCommand(
      command(
        'push',
        'Create what is new and update what changed (a new version only when the definition changed); triggers and webhooks declared beside a workflow too',
        [
          'platform workflows push ./workflows --dry-run     # the plan: create / update / unchanged / delete',
          'platform workflows push ./workflows               # apply it',
          'platform workflows push ./workflows --prune       # also delete what is no longer in the folder',
          'PLATFORM_URL=https://automations.example.com PLATFORM_API_KEY=$KEY platform workflows push ./workflows --json',
        ],
      )
        .argument('<dir>', 'a folder of workflow files (*.yaml, *.yml, *.json), one workflow each, matched by name')
        .option('--dry-run', 'print the plan and change nothing; exits 1 when a file is invalid')
        .option('--prune', 'delete workflows (and triggers, webhooks of pushed workflows) that the folder no longer declares')
        .action(handle(push)),
    )
    .addCommand(
      command('pull', 'Write the workflows of the data plane, with their triggers and webhooks, into files that push reads back unchanged', [
        'platform workflows pull ./workflows',
        'platform workflows pull ./workflows --format json',
      ])
        .argument('<dir>', 'the folder to write into (made if missing); a file already holding a workflow of that name is overwritten')
        .option('--format <yaml|json>', 'the format of new files', 'yaml')
        .action(handle(pull)),
    );
}
