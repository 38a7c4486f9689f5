import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, type PlatformClient } from '@platform-sdk/client';
import { REPO_ROOT, createTenant, e2eEnvironment } from '@platform/testing';

const env = e2eEnvironment();

/** The environment of npm and of the CLI: none of the npm_* variables of the jest run, so nothing points back into the workspace. */
function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith('npm_') && !k.startsWith('PLATFORM_')));
  return { ...base, ...extra };
}

function npm(args: string[], cwd: string, home: string): { status: number | null; output: string } {
  const r = spawnSync('npm', args, { cwd, env: cleanEnv({ HOME: home, npm_config_cache: join(process.env.HOME ?? home, '.npm') }), encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

const BROKEN = 'name: Broken\nsteps:\n  - id: fetch\n    type: htp.request\n    input: { url: "https://example.com" }\n';

const FILES: Record<string, string> = {
  'double-it.yaml': `name: Double it
description: Doubles x
steps:
  - id: double
    type: transform
    input:
      value: "{% input.x * 2 %}"
triggers:
  - name: nightly
    type: schedule
    schedule: { cron: "0 2 * * *", timezone: Europe/Berlin }
    input: { x: 1 }
`,
  'always-fails.json': JSON.stringify({ name: 'Always fails', steps: [{ id: 'boom', type: 'fail', input: { code: 'no_luck', message: 'always' } }] }, null, 2),
  'slow-double.yaml': `name: Slow double
steps:
  - id: pause
    type: delay
    input: { seconds: 1 }
  - id: double
    type: transform
    input:
      value: "{% input.x * 2 %}"
`,
};

describe('the packed `platform` CLI against the running platform', () => {
  let work: string;
  let bin: string;
  let client: PlatformClient;
  let cliEnv: NodeJS.ProcessEnv;

  /** Runs the installed bin; resolves with its exit code and output. */
  function platform(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve) => {
      const child = spawn(bin, args, { cwd: work, env: cliEnv });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  const pushJson = async (dir: string, ...flags: string[]) => {
    const r = await platform(['workflows', 'push', dir, '--json', ...flags]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    return JSON.parse(r.stdout) as { summary: Record<string, number>; changes: { action: string; kind: string; name: string }[]; kept: string[] };
  };

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'platform-cli-e2e-'));
    const home = join(work, 'home');
    const project = join(work, 'project');
    mkdirSync(home);
    mkdirSync(project);
    // Pack both packages as they would be published, and install the tarballs into an empty
    // project outside the repository: no workspace link can stand in for a missing file or dependency.
    for (const dir of ['clients/typescript', 'clients/cli']) {
      const packed = npm(['pack', '--pack-destination', work, '--silent'], join(REPO_ROOT, dir), home);
      expect([dir, packed.status, packed.output]).toEqual([dir, 0, expect.any(String)]);
    }
    const tarballs = readdirSync(work).filter((f) => f.endsWith('.tgz'));
    expect(tarballs.sort()).toEqual(['platform-sdk-cli-0.1.0.tgz', 'platform-sdk-client-0.1.0.tgz']);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'cli-e2e-project', private: true }));
    const install = ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs.map((t) => join(work, t))];
    // From the npm cache when it holds every dependency; else the registry fills it.
    let installed = npm([...install, '--offline'], project, home);
    if (installed.status !== 0) installed = npm([...install, '--prefer-offline'], project, home);
    expect([installed.status, installed.output]).toEqual([0, expect.any(String)]);
    bin = join(project, 'node_modules', '.bin', 'platform');

    const tenant = await createTenant(env.gatewayUrl, env.adminToken, 'cli-e2e');
    client = createClient({ baseUrl: env.gatewayUrl, apiKey: tenant.test_key });
    cliEnv = cleanEnv({ HOME: home, PLATFORM_URL: env.gatewayUrl, PLATFORM_API_KEY: tenant.test_key });
    mkdirSync(join(work, 'workflows'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(join(work, 'workflows', name), text);
  }, 180_000);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('is installed from its tarball with the SDK beside it, not linked into the workspace', async () => {
    const sdk = realpathSync(join(work, 'project', 'node_modules', '@platform-sdk', 'client'));
    expect(sdk.startsWith(join(work, 'project'))).toBe(true);
    expect(realpathSync(bin).startsWith(join(work, 'project'))).toBe(true);
    const help = await platform(['workflows', 'push', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Examples:');
  });

  it('pushes a folder of three workflows with a schedule trigger, then again with nothing to do', async () => {
    const first = await pushJson('workflows');
    expect(first.summary).toEqual({ create: 4, update: 0, unchanged: 0, delete: 0 });
    const workflows = await client.workflows.list().toArray();
    expect(workflows.map((w) => [w.name, w.version]).sort()).toEqual([
      ['Always fails', 1],
      ['Double it', 1],
      ['Slow double', 1],
    ]);
    const [trigger] = await client.triggers.list().toArray();
    expect(trigger).toMatchObject({ name: 'nightly', type: 'schedule', status: 'enabled', schedule: { cron: '0 2 * * *', timezone: 'Europe/Berlin' } });

    const again = await pushJson('workflows');
    expect(again.summary).toEqual({ create: 0, update: 0, unchanged: 4, delete: 0 });
    expect((await client.workflows.findByName('Double it'))?.version).toBe(1);
  });

  it('turns a pushed trigger off and on by its workflow and name', async () => {
    const off = await platform(['triggers', 'disable', 'Double it/nightly', '--json']);
    expect([off.code, JSON.parse(off.stdout)]).toEqual([0, expect.objectContaining({ name: 'nightly', status: 'disabled' })]);
    const on = await platform(['triggers', 'enable', 'Double it/nightly']);
    expect([on.code, on.stdout]).toEqual([0, expect.stringMatching(/\(nightly\) enabled, next at /)]);
    const unknown = await platform(['triggers', 'enable', 'Double it/nope']);
    expect([unknown.code, unknown.stderr]).toEqual([1, "error: workflow 'Double it' has no trigger named 'nope'\n"]);
  });

  it('updates only the workflow that changed, with one new version', async () => {
    writeFileSync(join(work, 'workflows', 'double-it.yaml'), FILES['double-it.yaml'].replace('input.x * 2', 'input.x * 2 + 0'));
    const plan = await platform(['workflows', 'push', 'workflows', '--dry-run']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toMatch(/~ update +workflow +Double it/);
    expect(plan.stdout).toContain('steps[0].input.value: "{% input.x * 2 %}" → "{% input.x * 2 + 0 %}"');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 3 unchanged, 0 to delete (dry run: nothing changed)');
    const pushed = await pushJson('workflows');
    expect(pushed.summary).toEqual({ create: 0, update: 1, unchanged: 3, delete: 0 });
    expect(pushed.changes.find((c) => c.action === 'update')).toMatchObject({ kind: 'workflow', name: 'Double it' });
    const versions = Object.fromEntries((await client.workflows.list().toArray()).map((w) => [w.name, w.version]));
    expect(versions).toEqual({ 'Double it': 2, 'Always fails': 1, 'Slow double': 1 });
  });

  it('refuses a broken file on --dry-run, naming the file and the path, and changes nothing', async () => {
    const dir = join(work, 'with-broken');
    cpSync(join(work, 'workflows'), dir, { recursive: true });
    writeFileSync(join(dir, 'broken.yaml'), BROKEN);
    const r = await platform(['workflows', 'push', dir, '--dry-run']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(dir, 'broken.yaml')}: steps[0].type: [step fetch] unknown step type 'htp.request'`);
    expect(r.stdout).toBe('');
    expect(await client.workflows.findByName('Broken')).toBeUndefined();
  });

  it('keeps a workflow the folder does not declare, and deletes it with --prune', async () => {
    await client.workflows.create({ name: 'Made by hand', steps: [{ id: 'a', type: 'transform', input: {} }] });
    const plain = await pushJson('workflows', '--dry-run');
    expect(plain.kept).toEqual(['Made by hand']);
    expect(plain.summary.delete).toBe(0);
    const pruned = await pushJson('workflows', '--prune');
    expect(pruned.summary).toEqual({ create: 0, update: 0, unchanged: 4, delete: 1 });
    expect(await client.workflows.findByName('Made by hand')).toBeUndefined();
  });

  it('pulls into files that push back as a no-op', async () => {
    const pulled = await platform(['workflows', 'pull', 'pulled']);
    expect(pulled.code).toBe(0);
    expect(readdirSync(join(work, 'pulled')).sort()).toEqual(['always-fails.yaml', 'double-it.yaml', 'slow-double.yaml']);
    const pushed = await pushJson('pulled', '--prune');
    expect(pushed.summary).toEqual({ create: 0, update: 0, unchanged: 4, delete: 0 });
  });

  it('gives the SDK from its tarball to a plain script: runs.run, a list across pages, typed errors', () => {
    const project = join(work, 'project');
    writeFileSync(
      join(project, 'script.mjs'),
      `import { createClient, PlatformApiError } from '@platform-sdk/client';
const client = createClient({ baseUrl: process.env.PLATFORM_URL, apiKey: process.env.PLATFORM_API_KEY });
const wf = await client.workflows.findByName('Double it');
const run = await client.runs.run(wf.id, { x: 4 }, { idempotencyKey: 'sdk-script-1', timeout: 30000 });
const names = [];
for await (const w of client.workflows.list({}, { pageSize: 1 })) names.push(w.name);
const error = await client.executions.get('0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e').catch((e) => e);
console.log(JSON.stringify({ status: run.status, output: run.output, names: names.sort(), api: error instanceof PlatformApiError, code: error.code, requestId: typeof error.requestId }));
`,
    );
    const r = spawnSync(process.execPath, ['script.mjs'], { cwd: project, env: cliEnv, encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout)).toEqual({
      status: 'succeeded',
      output: { value: 8 },
      names: ['Always fails', 'Double it', 'Slow double'],
      api: true,
      code: 'not_found',
      requestId: 'string',
    });
  });

  it('runs with --wait: the output on stdout and exit 0 when it succeeds, exit 1 when it fails, 2 for a wrong command', async () => {
    writeFileSync(join(work, 'input.json'), '{"x": 21}');
    const ok = await platform(['run', 'Double it', '--input', '@input.json', '--wait', '--timeout', '1m']);
    expect([ok.code, JSON.parse(ok.stdout)]).toEqual([0, { value: 42 }]);
    expect(ok.stderr).toMatch(/run [0-9a-f-]{36} succeeded/);

    const failed = await platform(['run', 'Always fails', '--wait']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/run [0-9a-f-]{36} failed: no_luck: always \(step boom\)/);

    const usage = await platform(['run', 'Double it', '--input', '@missing.json', '--wait']);
    expect(usage.code).toBe(2);
  });

  it('follows the logs of a run until it ends', async () => {
    const started = await platform(['run', 'Slow double', '--input', '{"x": 5}']);
    expect(started.code).toBe(0);
    const runId = started.stdout.trim();
    expect(runId).toMatch(/^[0-9a-f-]{36}$/);
    const followed = await platform(['executions', 'logs', runId, '--follow']);
    expect(followed.code).toBe(0);
    const lines = followed.stdout.trim().split('\n');
    expect(lines.some((l) => l.includes('double') && l.includes('succeeded'))).toBe(true);
    expect(followed.stderr).toContain(`run ${runId} succeeded`);
    await expect(client.executions.get(runId)).resolves.toMatchObject({ status: 'succeeded', output: { value: 10 } });
  });
});
