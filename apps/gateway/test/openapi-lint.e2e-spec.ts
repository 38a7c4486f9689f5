/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-unsafe-assignment, @typescript-eslint/no-unsafe-call -- the assertions walk OpenAPI documents, untyped JSON of any shape */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SERVICE_NAMES } from '@platform/common';
import { REPO_ROOT, call, e2eEnvironment } from '@platform/testing';

const env = e2eEnvironment();
const run = promisify(execFile);

/** The fourteen documents as clients read them: each service's through the gateway, and the merged one. */
const DOCUMENTS = [...SERVICE_NAMES.map((name) => ({ name, path: `/v3/api-docs/${name}` })), { name: 'merged', path: '/v3/api-docs' }];

type Json = Record<string, any>;

interface SpectralResult {
  code: string;
  message: string;
  path: (string | number)[];
  severity: number;
  source: string;
}

const SEVERITY = ['error', 'warning', 'info', 'hint'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('OpenAPI descriptions, linted as served', () => {
  const documents = new Map<string, Json>();
  const problems = new Map<string, string[]>();
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const files: string[] = [];
    for (const { name, path } of DOCUMENTS) {
      const res = await call<Json>(env.gatewayUrl, path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      documents.set(name, res.body);
      const file = join(dir, `${name}.json`);
      writeFileSync(file, res.text);
      files.push(file);
      problems.set(name, []);
    }
    // Spectral's CLI with the repository's ruleset (.spectral.yaml), once for all fourteen files.
    const cli = join(REPO_ROOT, 'node_modules/@stoplight/spectral-cli/dist/index.js');
    const args = [cli, 'lint', '--ruleset', join(REPO_ROOT, '.spectral.yaml'), '--format', 'json', '--fail-severity', 'hint', '--quiet', ...files];
    const output = await run(process.execPath, args, { cwd: REPO_ROOT, maxBuffer: 64 * 1024 * 1024 }).then(
      (r) => r.stdout,
      // Exit code 1 means problems were found: the JSON report is still on stdout.
      (error: { stdout?: string; stderr?: string }) => {
        if (!error.stdout?.trim().startsWith('[')) throw new Error(`spectral failed: ${error.stderr ?? 'no output'}`);
        return error.stdout;
      },
    );
    const results = JSON.parse(output.trim() || '[]') as SpectralResult[];
    for (const result of results) {
      const name = basename(result.source, '.json');
      problems.get(name)?.push(`${SEVERITY[result.severity]} ${result.code}: ${result.message} at ${result.path.join('.')}`);
    }
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it.each(DOCUMENTS.map((d) => d.name))('%s: spectral finds no problem of any severity', (name) => {
    expect(problems.get(name)).toEqual([]);
  });

  it.each(DOCUMENTS.map((d) => d.name))('%s: every operation is documented for readers and client generators', (name) => {
    expect(gaps(documents.get(name)!, name)).toEqual([]);
  });

  it('gives every operation of the merged document an id of its service, unique', () => {
    const ids = operations(documents.get('merged')!).map(({ operation }) => operation.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    const prefixes = new Set([...SERVICE_NAMES.map((s) => s.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())), 'gateway']);
    expect(ids.filter((id) => !prefixes.has(id.split('_')[0]))).toEqual([]);
  });
});

function operations(doc: Json): { route: string; operation: Json }[] {
  return Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    METHODS.filter((m) => (item as Json)[m]).map((m) => ({ route: `${m.toUpperCase()} ${path}`, operation: (item as Json)[m] as Json })),
  );
}

function resolve(doc: Json, schema: Json | undefined): Json | undefined {
  const ref = schema?.$ref as string | undefined;
  return ref ? (doc.components.schemas[ref.split('/').pop()!] as Json) : schema;
}

/** A media type shows an example: its own, its schema's, or examples of the schema's properties. */
function hasExample(doc: Json, media: Json | undefined): boolean {
  if (!media) return false;
  if (media.example !== undefined || media.examples) return true;
  const schema = resolve(doc, media.schema);
  if (!schema) return false;
  if (schema.example !== undefined || schema.format === 'binary') return true;
  return Object.values((schema.properties ?? {}) as Json).some(
    (p) => (p as Json).example !== undefined || (resolve(doc, p as Json) ?? {}).example !== undefined,
  );
}

/** What spectral does not check: descriptions, security, error schema and examples on every operation. */
function gaps(doc: Json, name: string): string[] {
  const out: string[] = [];
  const declared = new Set((doc.tags as { name: string; description?: string }[]).filter((t) => t.description).map((t) => t.name));
  for (const { route, operation } of operations(doc)) {
    if (!operation.summary || !operation.description) out.push(`${route}: summary and description`);
    if (!Array.isArray(operation.security)) out.push(`${route}: no security (public routes say security: [])`);
    if (!operation.tags?.length || operation.tags.some((t: string) => !declared.has(t))) out.push(`${route}: tags declared with a description`);
    const isPublic = Array.isArray(operation.security) && operation.security.length === 0;
    const statuses = Object.keys(operation.responses as Json);
    if (!isPublic && name !== 'merged') {
      for (const status of ['401', '403', '429']) if (!statuses.includes(status)) out.push(`${route}: documents ${status}`);
    }
    if (operation.requestBody) {
      for (const status of ['400', '413', '415']) if (!statuses.includes(status)) out.push(`${route}: documents ${status}`);
      const media = Object.values(operation.requestBody.content as Json)[0] as Json;
      if (!hasExample(doc, media)) out.push(`${route}: request example`);
    }
    if (!statuses.includes('500') && !route.startsWith('GET /v3/') && !route.startsWith('GET /actuator/')) out.push(`${route}: documents 500`);
    for (const [status, response] of Object.entries(operation.responses as Record<string, Json>)) {
      const media = response.content?.['application/json'] ?? Object.values((response.content ?? {}) as Json)[0];
      if (Number(status) >= 400) {
        const health = route.startsWith('GET /actuator/health') && status === '503';
        if (!health && media?.schema?.$ref !== '#/components/schemas/Error') out.push(`${route} ${status}: the Error schema`);
        if (!hasExample(doc, media)) out.push(`${route} ${status}: an example`);
      } else if (response.content && !hasExample(doc, media)) {
        out.push(`${route} ${status}: an example`);
      }
    }
  }
  return out;
}
