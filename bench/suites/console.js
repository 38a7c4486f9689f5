// Issue 31: the web console's weight and speed as a browser sees them, through the gateway.
//   first load   every file the sign-in page and the first signed-in page need (index.html, the
//                entry chunk, the stylesheet, modulepreloads), gzip-compressed as a server would
//                send them; the target is under 300 KB. The workflow editor (React Flow, dagre) is
//                a chunk of its own, loaded when a workflow is opened: reported apart.
//   interactive  headless Debian chromium: from navigation to the executions page's table (signed
//                in: the key is put in session storage first), median of 5 loads, with RUNS runs
//                in the tenant (10,000; BENCH_CONSOLE_RUNS=N for another). The page reads one page of 25,
//                so the tenant's size is the API's part.
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { createClient } from '@platform-sdk/client';
import { createTenant } from '@platform/testing';
import { percentile, progress } from '../harness.js';

export const name = 'console';
export const services = ['account', 'run'];
const adminToken = randomBytes(32).toString('base64url');
export const env = { PLATFORM_ADMIN_TOKEN: adminToken, MASTER_KEY: randomBytes(32).toString('base64'), RATE_LIMIT_ENABLED: 'false' };

const CHROMIUM = '/usr/bin/chromium';
const RUNS = Number(process.env.BENCH_CONSOLE_RUNS ?? 10_000);
const LOADS = 5;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

async function fetched(base, path) {
  const res = await fetch(new URL(path, base));
  if (!res.ok) throw new Error(`${path}: ${res.status} (is the console built? npm run build)`);
  return Buffer.from(await res.arrayBuffer());
}

/** The files index.html pulls in at once: its scripts, stylesheets and modulepreloads. */
async function firstLoad(gatewayUrl) {
  const html = await fetched(gatewayUrl, '/console/');
  const linked = [...html.toString().matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]);
  const files = [{ path: '/console/', body: html }];
  for (const path of linked) files.push({ path, body: await fetched(gatewayUrl, path) });
  const entry = files.find((f) => f.path.endsWith('.js'));
  // Lazy chunks are named in the entry chunk: the editor's is loaded when a workflow is opened.
  const lazy = [
    ...new Set([...(entry?.body.toString() ?? '').matchAll(/assets\/(workflow-editor[^"'`]+\.(?:js|css))/g)].map((m) => `/console/assets/${m[1]}`)),
  ];
  const editor = [];
  for (const path of lazy) editor.push({ path, body: await fetched(gatewayUrl, path) });
  const sum = (list, f) => list.reduce((total, file) => total + f(file.body), 0);
  return {
    files: files.map((f) => f.path),
    raw: sum(files, (b) => b.length),
    gzip: sum(files, (b) => gzipSync(b).length),
    editorGzip: sum(editor, (b) => gzipSync(b).length),
  };
}

async function interactive(gatewayUrl, apiKey) {
  if (!existsSync(CHROMIUM)) return undefined;
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  try {
    const ms = [];
    for (let i = 0; i < LOADS; i += 1) {
      // A new context each time: a cold cache, as a first visit.
      const context = await browser.newContext();
      await context.addInitScript((key) => sessionStorage.setItem('platform-console.api-key', key), apiKey);
      const page = await context.newPage();
      const started = performance.now();
      await page.goto(`${gatewayUrl}/console/executions`);
      await page.locator('table tbody tr').first().waitFor();
      ms.push(performance.now() - started);
      await context.close();
    }
    return ms.sort((a, b) => a - b);
  } finally {
    await browser.close();
  }
}

export async function run({ platform }) {
  const gatewayUrl = platform.gatewayUrl;
  const load = await firstLoad(gatewayUrl);
  const lines = [
    `first load (${load.files.length} files: ${load.files.join(', ')}): ${kb(load.gzip)} gzip, ${kb(load.raw)} raw (target < 300 KB gzip: ${load.gzip < 300 * 1024 ? 'met' : 'MISSED'})`,
    `workflow editor chunk (loaded on opening a workflow): ${kb(load.editorGzip)} gzip`,
  ];
  const tenant = await createTenant(gatewayUrl, adminToken, 'bench-console');
  const client = createClient({ baseUrl: gatewayUrl, apiKey: tenant.test_key });
  const workflow = await client.workflows.create({
    name: 'bench-console',
    steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }],
  });
  progress(`starting ${RUNS} runs`);
  for (let i = 0; i < RUNS; i += 50) {
    await Promise.all(Array.from({ length: Math.min(50, RUNS - i) }, (_, j) => client.runs.start(workflow.id, { x: i + j })));
  }
  progress(`executions page in headless chromium, ${LOADS} cold loads`);
  const ms = await interactive(gatewayUrl, tenant.test_key);
  lines.push(
    ms
      ? `executions page, navigation to table (${RUNS} runs in the tenant): p50 ${percentile(ms, 50).toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms (target < 1 s)`
      : `executions page: skipped (${CHROMIUM} missing: scripts/ensure-browser.sh)`,
  );
  return lines;
}
