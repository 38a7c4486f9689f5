import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RunWaitTimeoutError, createClient, type ExecutionLog } from '../src/index.js';
import { StandInServer, json } from './stand-in-server.js';

const server = new StandInServer();
beforeAll(() => server.start());
afterAll(() => server.stop());

const client = () => createClient({ baseUrl: server.url, apiKey: 'sv_test_key' });
const items = Array.from({ length: 5 }, (_, i) => ({ id: `w${i}`, name: `wf-${i}` }));

/** A list of `all` in pages of `limit`, the cursor being the next index (as opaque to the SDK as the platform's). */
function page<T>(all: T[], url: string) {
  const query = new URL(url, 'http://x').searchParams;
  const start = Number(query.get('cursor') ?? 0);
  const limit = Number(query.get('limit') ?? 50);
  const next = start + limit < all.length ? String(start + limit) : null;
  return { data: all.slice(start, start + limit), next_cursor: next };
}

describe('SDK lists', () => {
  it('follows next_cursor until it is null, with the filters on every page', async () => {
    server.reset((req, res) => json(res, 200, page(items, req.url)));
    const names: string[] = [];
    for await (const workflow of client().workflows.list({ status: 'active' }, { pageSize: 2 })) names.push(workflow.name);
    expect(names).toEqual(['wf-0', 'wf-1', 'wf-2', 'wf-3', 'wf-4']);
    expect(server.seen.map((s) => s.url)).toEqual([
      '/run/workflows?status=active&limit=2',
      '/run/workflows?status=active&limit=2&cursor=2',
      '/run/workflows?status=active&limit=2&cursor=4',
    ]);
  });

  it('pages any other list of the platform the same way', async () => {
    server.reset((req, res) => json(res, 200, page(items, req.url)));
    const files = await client().list<{ id: string }>('/storage/files', { content_type: 'application/pdf' }, { pageSize: 3 }).toArray();
    expect(files.map((f) => f.id)).toEqual(['w0', 'w1', 'w2', 'w3', 'w4']);
    expect(server.seen.map((s) => s.url)).toEqual([
      '/storage/files?content_type=application%2Fpdf&limit=3',
      '/storage/files?content_type=application%2Fpdf&limit=3&cursor=3',
    ]);
  });

  it('fetches no further page than the loop reads', async () => {
    server.reset((req, res) => json(res, 200, page(items, req.url)));
    await expect(client().workflows.list({}, { pageSize: 2 }).toArray(1)).resolves.toHaveLength(1);
    expect(server.seen).toHaveLength(1);
  });

  it('finds a workflow by its exact name among the prefix matches', async () => {
    server.reset((_req, res) =>
      json(res, 200, {
        data: [
          { id: 'a', name: 'deploy-2' },
          { id: 'b', name: 'deploy' },
        ],
        next_cursor: null,
      }),
    );
    await expect(client().workflows.findByName('deploy')).resolves.toMatchObject({ id: 'b' });
    expect(server.seen[0].url).toBe('/run/workflows?name=deploy&limit=200');
  });
});

describe('SDK runs', () => {
  it('starts with an Idempotency-Key and waits for the final status: runs.run', async () => {
    let polls = 0;
    server.reset((req, res) => {
      if (req.method === 'POST') return json(res, 202, { run_id: 'r1', status: 'queued' });
      polls += 1;
      json(res, 200, { id: 'r1', status: polls < 3 ? 'running' : 'succeeded', output: { value: 42 }, wake_at: null });
    });
    const statuses: string[] = [];
    const execution = await client().runs.run('wf-id', { x: 21 }, { idempotencyKey: 'order-4711', onStatus: (e) => statuses.push(e.status) });
    expect(execution).toMatchObject({ id: 'r1', status: 'succeeded', output: { value: 42 } });
    expect(statuses).toEqual(['running', 'running', 'succeeded']);
    const start = server.seen[0];
    expect(start.headers['idempotency-key']).toBe('order-4711');
    expect(JSON.parse(start.body)).toEqual({ automation_id: 'wf-id', input: { x: 21 } });
  });

  it('gives up waiting at the timeout, naming the run and its status', async () => {
    server.reset((_req, res) => json(res, 200, { id: 'r2', status: 'waiting', wake_at: null }));
    const error = (await client()
      .runs.wait('r2', { timeout: 150 })
      .catch((e: unknown) => e)) as RunWaitTimeoutError;
    expect(error).toBeInstanceOf(RunWaitTimeoutError);
    expect(error).toMatchObject({ runId: 'r2', lastStatus: 'waiting' });
  });

  it('stops waiting when aborted', async () => {
    server.reset((_req, res) => json(res, 200, { id: 'r3', status: 'running', wake_at: null }));
    await expect(client().runs.wait('r3', { signal: AbortSignal.timeout(100) })).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('has the start held (Prefer: wait): a run finished within it is one request, answered 200 with the execution', async () => {
    server.reset((req, res) =>
      json(res, 200, { id: 'r7', status: 'succeeded', output: { value: 42 }, wake_at: null }, { 'preference-applied': String(req.headers.prefer) }),
    );
    const statuses: string[] = [];
    const execution = await client().runs.run('wf-id', { x: 21 }, { idempotencyKey: 'k7', timeout: 5_500, onStatus: (e) => statuses.push(e.status) });
    expect(execution).toMatchObject({ id: 'r7', status: 'succeeded', output: { value: 42 } });
    expect(statuses).toEqual(['succeeded']);
    expect(server.seen.map((s) => [s.method, s.url, s.headers.prefer, s.headers['idempotency-key']])).toEqual([
      ['POST', '/v1/automations/run', 'wait=5', 'k7'],
    ]);
    expect(JSON.parse(server.seen[0].body)).toEqual({ automation_id: 'wf-id', input: { x: 21 } });
  });

  it('startHeld gives the accepted run alone when the platform answers 202 (not finished, or it does not hold starts)', async () => {
    server.reset((_req, res) => json(res, 202, { run_id: 'r8', status: 'running' }));
    await expect(client().runs.startHeld('wf-id', {}, 1)).resolves.toEqual({ run_id: 'r8', status: 'running' });
  });

  it('asks the platform to hold each read (Prefer: wait) right after the start, and reads again at once after a held one', async () => {
    let reads = 0;
    server.reset((req, res) => {
      if (req.method === 'POST') return json(res, 202, { run_id: 'r4', status: 'queued' });
      reads += 1;
      // The first read is held to the end of its wait and the run is still going; the second sees it end.
      setTimeout(() => json(res, 200, { id: 'r4', status: reads < 2 ? 'running' : 'succeeded', wake_at: null }, { 'preference-applied': 'wait=30' }), 40);
    });
    const execution = await client().runs.run('wf-id', {}, { timeout: 60_000 });
    expect(execution.status).toBe('succeeded');
    const [start, first, second] = server.seen;
    expect(server.seen).toHaveLength(3);
    expect([first.headers.prefer, second.headers.prefer]).toEqual(['wait=30', 'wait=30']);
    // No pause before the first read, nor between two held reads (the 40 ms are the stand-in's own hold).
    expect(first.at - start.at).toBeLessThan(30);
    expect(second.at - first.at).toBeLessThan(40 + 30);
  });

  it('polls with its back-off when the platform does not hold reads (no Preference-Applied: an older platform)', async () => {
    let reads = 0;
    server.reset((_req, res) => {
      reads += 1;
      json(res, 200, { id: 'r5', status: reads < 4 ? 'running' : 'succeeded', wake_at: null });
    });
    await expect(client().runs.wait('r5')).resolves.toMatchObject({ status: 'succeeded' });
    expect(server.seen.map((s) => s.headers.prefer)).toEqual(['wait=30', undefined, undefined, undefined]);
    // 5 then 10 ms between polls.
    expect(server.seen[2].at - server.seen[1].at).toBeGreaterThanOrEqual(9);
  });

  it('holds no read longer than the time left or the transport’s per-attempt limit', async () => {
    server.reset((_req, res) => json(res, 200, { id: 'r6', status: 'succeeded', wake_at: null }, { 'preference-applied': 'wait=2' }));
    await client().runs.wait('r6', { timeout: 2_900 });
    expect(server.seen[0].headers.prefer).toBe('wait=2');
    server.reset((_req, res) => json(res, 200, { id: 'r6', status: 'succeeded', wake_at: null }, { 'preference-applied': 'wait=9' }));
    await createClient({ baseUrl: server.url, apiKey: 'sv_test_key', timeoutMs: 10_000 }).runs.wait('r6');
    expect(server.seen[0].headers.prefer).toBe('wait=9');
  });

  it('follows the logs of a run until it has finished, each line once', async () => {
    const lines: ExecutionLog[] = [];
    const line = (n: number) => ({ id: `l${n}`, step_id: 's', level: 'info', message: `line ${n}`, data: null, created_at: '' }) as ExecutionLog;
    let gets = 0;
    server.reset((req, res) => {
      if (req.url.startsWith('/run/executions/r4/logs')) return json(res, 200, page(lines, req.url));
      gets += 1;
      // Three lines appear while it runs, the last just before it finishes.
      lines.push(line(lines.length));
      json(res, 200, { id: 'r4', status: gets < 3 ? 'running' : 'failed' });
    });
    const read: string[] = [];
    const follow = client().executions.follow('r4', {}, { pollInterval: 10 });
    let next = await follow.next();
    while (!next.done) {
      read.push(next.value.message);
      next = await follow.next();
    }
    expect(read).toEqual(['line 0', 'line 1', 'line 2']);
    expect(next.value).toMatchObject({ status: 'failed' });
  });
});

describe('the SDK package', () => {
  it('is installable outside the monorepo: not private, ESM with types, a Node floor, no platform package at run time', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.private).toBeUndefined();
    expect(manifest.type).toBe('module');
    expect(manifest.engines).toEqual({ node: expect.stringMatching(/^>=\d+/) });
    expect((manifest.exports as Record<string, { types?: string }>)['.']?.types).toBe('./dist/src/index.d.ts');
    expect(Object.keys(manifest.dependencies as object).filter((d) => d.startsWith('@platform/'))).toEqual([]);
  });
});
