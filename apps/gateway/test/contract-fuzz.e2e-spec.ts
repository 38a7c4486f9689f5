import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Agent, fetch } from 'undici';
import { call, createTenant, e2eEnvironment, type TestTenant } from '@platform/testing';
import { bodyArbitrary } from './fuzz/body-arbitrary.js';
import { NEVER_EXCUSED, ResponseValidator, problemsOf, type Answer, type Problem, type ProblemKind } from './fuzz/contract-checks.js';
import { hostileRequests, pathOf, type FuzzRequest } from './fuzz/hostile-requests.js';
import { operationsOf, type OpenApiDocument, type Operation } from './fuzz/openapi-operations.js';

const env = e2eEnvironment();
/** Fixed, so a failure is the same on every machine; change it to explore, and keep what it finds as a regression. */
const SEED = 20261127;
/** Generated bodies per operation with a JSON body (on top of the fixed catalogue). */
const RUNS = 12;
/** Operations fuzzed at once: enough to keep two cores busy, few enough that nothing times out. */
const PARALLEL = 4;

interface Drift {
  operation: string;
  kind: ProblemKind;
  why: string;
}
/** Known drift being fixed, each with its reason: never a 5xx or an error outside the error shape (NEVER_EXCUSED). */
const KNOWN = (JSON.parse(readFileSync(join(import.meta.dirname, '../../test/fuzz/known-drift.json'), 'utf8')) as { drift: Drift[] }).drift;
const excused = (op: Operation, p: Problem) => KNOWN.some((d) => d.operation === op.label && d.kind === p.kind);

interface Finding extends Problem {
  operation: string;
  request: string;
}

const dispatcher = new Agent({ keepAliveTimeout: 4_000, keepAliveMaxTimeout: 4_000 });

/** Sends one request as a client would (raw text: NUL, lone surrogates and broken JSON go out as they are). */
async function send(op: Operation, tenant: TestTenant, r: FuzzRequest): Promise<Answer> {
  // Platform administration is fuzzed without its token (a valid body would close every tenant's billing period).
  const headers: Record<string, string> = op.auth === 'key' ? { 'x-api-key': tenant.test_key } : {};
  if (r.contentType) headers['content-type'] = r.contentType;
  const res = await fetch(`${env.gatewayUrl}${r.path}`, { method: r.method, headers, body: r.body, dispatcher, signal: AbortSignal.timeout(60_000) });
  const text = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  let body: unknown = text;
  if (contentType.includes('json') && text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = `(not JSON) ${text.slice(0, 200)}`;
    }
  }
  return { status: res.status, contentType, body };
}

const describeRequest = (r: FuzzRequest) =>
  `${r.method} ${r.path.slice(0, 200)}${r.body === undefined ? '' : ` ${r.body.length > 300 ? `${r.body.slice(0, 300)}… (${r.body.length} chars)` : r.body}`}`;

/** Runs `work` over the operations, `PARALLEL` at a time; deletions last, so nothing a later request needs is gone. */
async function eachOperation(operations: Operation[], work: (op: Operation) => Promise<void>): Promise<void> {
  const ordered = [...operations.filter((o) => o.method !== 'DELETE'), ...operations.filter((o) => o.method === 'DELETE')];
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      for (let i = next++; i < ordered.length; i = next++) await work(ordered[i]);
    }),
  );
}

/** One line per finding, grouped: the operation, what is wrong, and the smallest request that shows it. */
function report(findings: Finding[]): string {
  const lines = new Map<string, Finding>();
  for (const f of findings) if (!lines.has(`${f.operation} ${f.kind}`)) lines.set(`${f.operation} ${f.kind}`, f);
  return [...lines.values()].map((f) => `${f.operation} [${f.kind}] ${f.detail}\n    request: ${f.request}`).join('\n');
}

describe('every operation keeps its contract under hostile input (a fuzz generated from the merged OpenAPI)', () => {
  let doc: OpenApiDocument;
  let operations: Operation[];
  let validator: ResponseValidator;
  let tenant: TestTenant;
  const found: Finding[] = [];

  beforeAll(async () => {
    doc = (await call<OpenApiDocument>(env.gatewayUrl, '/v3/api-docs')).body;
    operations = operationsOf(doc);
    validator = new ResponseValidator(doc);
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'fuzz');
  });

  it('excuses only drift that exists, and never a 5xx or an error outside the error shape', () => {
    const labels = new Set(operations.map((o) => o.label));
    expect(KNOWN.filter((d) => !labels.has(d.operation) || NEVER_EXCUSED.includes(d.kind) || !d.why)).toEqual([]);
    expect(operations.length).toBeGreaterThan(150);
  });

  it('answers the fixed catalogue of hostile requests on every operation within its contract', async () => {
    let sent = 0;
    await eachOperation(operations, async (op) => {
      for (const r of hostileRequests(doc, op)) {
        const answer = await send(op, tenant, r);
        sent++;
        for (const p of problemsOf(op, answer, validator)) found.push({ ...p, operation: op.label, request: `${r.case}: ${describeRequest(r)}` });
      }
    });
    console.log(`contract fuzz: ${sent} hostile requests over ${operations.length} operations`);
    const unexcused = found.filter(
      (f) =>
        !excused(
          operations.find((o) => o.label === f.operation)!,
          f,
        ),
    );
    expect(report(unexcused)).toBe('');
  }, 900_000);

  it('answers generated bodies (fast-check, fixed seed, shrunk on failure) on every JSON operation within its contract', async () => {
    const failures: Finding[] = [];
    await eachOperation(
      operations.filter((o) => o.jsonBody),
      async (op) => {
        const path = pathOf(op);
        const problemsWith = async (body: unknown) => {
          const r: FuzzRequest = { case: 'generated', method: op.method, path, body: JSON.stringify(body) ?? 'null', contentType: 'application/json' };
          return problemsOf(op, await send(op, tenant, r), validator).filter((p) => !excused(op, p));
        };
        const run = await fc.check(
          fc.asyncProperty(bodyArbitrary(doc, op.jsonBody), async (body) => (await problemsWith(body)).length === 0),
          { seed: SEED, numRuns: RUNS },
        );
        if (run.failed && run.counterexample) {
          // The smallest body fast-check shrank the failure to, sent once more to say what is wrong with its answer.
          const body = run.counterexample[0];
          const problems = await problemsWith(body);
          const text = JSON.stringify(body) ?? 'null';
          for (const p of problems.length
            ? problems
            : [{ kind: 'server-error' as const, detail: run.errorInstance instanceof Error ? run.errorInstance.message : 'failed once, passed again' }])
            failures.push({ ...p, operation: op.label, request: `${op.method} ${path} ${text.slice(0, 400)} (seed ${SEED}, path ${run.counterexamplePath})` });
        }
      },
    );
    expect(report(failures)).toBe('');
  }, 900_000);
});
