import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();

/** `[[[…]]]` nested `depth` levels, as raw JSON text (JSON.stringify itself would recurse). */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

interface ErrorAnswer {
  status: number;
  message: string;
  details?: { field: string; message: string }[];
}

type Operation = { method: string; path: string };

/**
 * Bodies that nest thousands of levels deep used to overflow the stack of whatever walked them
 * first (class-transformer, validators, JSONata, JSON Schema) and answer 500. They are refused
 * where bodies are parsed, in every service, with a 400 that names the field when it can.
 */
describe('hostile JSON bodies', () => {
  let tenant: TestTenant;
  let operations: Operation[];

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'hostile');
    const docs = await call<{ paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> }>(env.gatewayUrl, '/v3/api-docs');
    operations = Object.entries(docs.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op?.requestBody?.content?.['application/json'] !== undefined)
        .map(([method, _op]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, () => randomUUID()) })),
    );
  });

  const send = (path: string, body: string, method = 'POST') => call<ErrorAnswer>(env.gatewayUrl, path, { method, headers: withKey(tenant.test_key), body });

  it.each([
    ['key creation', '/account/api-keys'],
    ['key creation in a data plane', `/api/v1/workflow/data-planes/${randomUUID()}/api-keys`],
    ['workflow creation', '/run/workflows'],
    ['a run', '/v1/automations/run'],
    ['a data query', '/v1/data/query'],
    ['a secret', '/storage/secrets'],
    ['a resource', '/storage/resources'],
    ['a data row', '/storage/data-tables/orders/rows'],
    ['a customer', '/portal/customers'],
  ])('refuses a 10,000-deep body for %s with 400, and the same inside a field naming it', async (_name, path) => {
    const whole = await send(path, nestedArrays(10_000));
    expect(whole.status).toBe(400);
    expect(whole.body.message).toMatch(/nests deeper than 100 levels/);
    const inField = await send(path, `{"name":"x","input":${nestedObjects(10_000)}}`);
    expect(inField.status).toBe(400);
    expect(inField.body.details).toEqual([{ field: 'input', message: 'nests deeper than 100 levels' }]);
  });

  it('refuses deep bodies on every JSON operation of every service, never with a 500', async () => {
    expect(operations.length).toBeGreaterThan(20);
    const answers = await Promise.all(operations.map(async (op) => ({ ...op, status: (await send(op.path, nestedArrays(5000), op.method)).status })));
    expect(answers.filter((a) => a.status !== 400)).toEqual([]);
  });

  it('refuses a JSON body that is not an object with 400 "The body must be a JSON object" where the body is an object, never with a 500', async () => {
    for (const body of ['[]', 'null', '5', '"text"', 'true', '[{"query":"refunds"}]']) {
      const query = await send(`/kb/knowledge-bases/${randomUUID()}/query`, body);
      expect([body, query.status, query.body.message]).toEqual([body, 400, 'The body must be a JSON object']);
    }
    // One at a time: these pass the parser, so each is authenticated first, and a burst of hundreds
    // of key checks on a busy machine is answered 503.
    const answers = [];
    for (const op of operations) for (const body of ['[]', 'null', '7']) answers.push({ ...op, body, status: (await send(op.path, body, op.method)).status });
    // An array used to reach the validation of every route with a body class, and crash it.
    expect(answers.filter((a) => a.status < 400 || a.status >= 500)).toEqual([]);
  }, 180_000);

  it('accepts nesting up to the limit where a body may hold free-form JSON', async () => {
    let input = '1';
    for (let i = 0; i < 90; i++) input = `{"a":${input}}`;
    const workflow = await call<{ id: string }>(env.gatewayUrl, '/run/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: 'deep input', steps: [{ id: 'echo', type: 'transform', input: { value: '{% input.deep %}' } }] },
    });
    expect(workflow.status).toBe(201);
    const run = await send('/v1/automations/run', `{"automation_id":"${workflow.body.id}","input":{"deep":${input}}}`);
    expect(run.status).toBe(202);
  });
});
