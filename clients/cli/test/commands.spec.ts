import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { runCli } from '../src/program.js';

/** A stand-in for the platform: `answer` decides, every request is recorded. */
let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
const seen: string[] = [];
let server: Server;
const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const EMPTY = { data: [], next_cursor: null };
const RUN_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8e03';
const WORKFLOW_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e';

let stdout = '';
let stderr = '';
const saved = { url: process.env.PLATFORM_URL, key: process.env.PLATFORM_API_KEY };

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}`);
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.env.PLATFORM_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PLATFORM_API_KEY = 'sv_test_key';
});

afterAll(async () => {
  process.env.PLATFORM_URL = saved.url;
  process.env.PLATFORM_API_KEY = saved.key;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  seen.length = 0;
  stdout = '';
  stderr = '';
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => ((stdout += String(chunk)), true));
  jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => ((stderr += String(chunk)), true));
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('platform run', () => {
  it('exits 0 with the output on stdout when the run succeeds, 1 when it fails', async () => {
    let status = 'succeeded';
    answer = (req, _body, res) =>
      req.method === 'POST' ? json(res, 202, { run_id: RUN_ID, status: 'queued' }) : json(res, 200, { id: RUN_ID, status, output: { value: 42 }, error: null });
    await expect(runCli(['run', WORKFLOW_ID, '--input', '{"x":21}', '--wait'])).resolves.toBe(0);
    expect(JSON.parse(stdout)).toEqual({ value: 42 });
    expect(seen).toEqual(['POST /v1/automations/run', `GET /run/executions/${RUN_ID}`]);

    stdout = '';
    status = 'timed_out';
    await expect(runCli(['run', WORKFLOW_ID, '--wait'])).resolves.toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(`run ${RUN_ID} timed_out`);
  });

  it('exits 2 for a command used wrongly, before any request', async () => {
    answer = (_req, _body, res) => json(res, 500, {});
    await expect(runCli(['run'])).resolves.toBe(2);
    await expect(runCli(['run', WORKFLOW_ID, '--input', '[1]'])).resolves.toBe(2);
    await expect(runCli(['run', WORKFLOW_ID, '--timeout', '10m'])).resolves.toBe(2);
    await expect(runCli(['nonsense'])).resolves.toBe(2);
    expect(seen).toEqual([]);
    expect(stderr).toContain('--timeout needs --wait');
  });

  it('exits 0 for --help, with examples', async () => {
    await expect(runCli(['executions', 'logs', '--help'])).resolves.toBe(0);
    expect(stdout).toContain('Examples:\n  $ platform executions logs <run id>\n  $ platform executions logs <run id> --follow\n');
  });

  it('names the request of a failed call', async () => {
    answer = (_req, _body, res) => json(res, 404, { error: 'Not Found', code: 'not_found', message: 'Execution not found', status: 404, request_id: 'req-1' });
    await expect(runCli(['executions', 'get', RUN_ID])).resolves.toBe(1);
    expect(stderr).toBe('error: Execution not found (404 not_found, request req-1)\n');
  });
});

describe('platform workflows push', () => {
  it('says which changes it made when one fails part way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-cli-push-'));
    for (const name of ['a', 'b']) writeFileSync(join(dir, `${name}.json`), JSON.stringify({ name, steps: [{ id: 's', type: 'transform', input: {} }] }));
    let created = 0;
    answer = (req, body, res) => {
      if (req.method === 'GET') return json(res, 200, EMPTY);
      if (req.url === '/run/workflows/validate') return json(res, 200, { valid: true, problems: [] });
      created += 1;
      if (created === 1) return json(res, 201, { id: WORKFLOW_ID, ...(JSON.parse(body) as object) });
      json(res, 500, { error: 'Internal Server Error', code: 'internal', message: 'Internal server error', status: 500, request_id: 'req-2' });
    };
    await expect(runCli(['workflows', 'push', dir])).resolves.toBe(1);
    expect(stderr).toContain('push stopped after 1 of 2 change(s):\n  done: create workflow a\n');
    expect(stderr).toContain('error: Internal server error (500 internal, request req-2)');
  });

  it('exits 2 for a folder that is not there', async () => {
    await expect(runCli(['workflows', 'push', '/does/not/exist', '--dry-run'])).resolves.toBe(2);
    expect(stderr).toContain('/does/not/exist is not a folder');
  });
});
