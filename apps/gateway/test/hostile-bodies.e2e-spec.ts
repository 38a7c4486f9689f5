import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

const env = e2eEnvironment();

/** `[[[…]]]` nested `depth` levels, as raw JSON text (JSON.stringify itself would recurse). */
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/**
 * Each operation's answer status, one request at a time: these pass the parser, so each is
 * authenticated first, and a burst of key checks on a busy machine is answered 503.
 */
async function oneAtATime<T extends object>(items: T[], status: (item: T) => Promise<number>): Promise<(T & { status: number })[]> {
  const answers: (T & { status: number })[] = [];
  for (const item of items) answers.push({ ...item, status: await status(item) });
  return answers;
}

interface ErrorAnswer {
  status: number;
  code: string;
  message: string;
  details?: { field: string; message: string }[];
}

type Operation = { method: string; path: string; json: boolean; params: boolean; paged: boolean };
type OperationDoc = { requestBody?: { content?: Record<string, unknown> }; parameters?: { name: string; in: string }[] };

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
    const docs = await call<{ paths: Record<string, Record<string, OperationDoc>> }>(env.gatewayUrl, '/v3/api-docs');
    operations = Object.entries(docs.body.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path,
          json: op?.requestBody?.content?.['application/json'] !== undefined,
          params: path.includes('{'),
          paged: (op?.parameters ?? []).some((p) => p.in === 'query' && p.name === 'cursor'),
        })),
    );
  });

  /** The path with each parameter replaced: a fresh UUID unless `value` is given. */
  const fill = (path: string, value?: string) => path.replace(/\{[^}]+\}/g, () => value ?? randomUUID());
  const jsonOperations = () => operations.filter((op) => op.json).map((op) => ({ ...op, path: fill(op.path) }));

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
    const json = jsonOperations();
    expect(json.length).toBeGreaterThan(20);
    const answers = await Promise.all(json.map(async (op) => ({ ...op, status: (await send(op.path, nestedArrays(5000), op.method)).status })));
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
    for (const op of jsonOperations())
      for (const body of ['[]', 'null', '7']) answers.push({ ...op, body, status: (await send(op.path, body, op.method)).status });
    // An array used to reach the validation of every route with a body class, and crash it.
    expect(answers.filter((a) => a.status < 400 || a.status >= 500)).toEqual([]);
  }, 180_000);

  // PostgreSQL text and jsonb cannot hold NUL, nor jsonb an unpaired surrogate: such strings used
  // to reach a query and answer 500. Every service refuses them where the request enters.
  describe('text PostgreSQL cannot store', () => {
    it('refuses NUL in a path parameter, naming it', async () => {
      const res = await call<ErrorAnswer>(env.gatewayUrl, '/catalog/connectors/%00', { method: 'DELETE', headers: withKey(tenant.test_key) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_character');
      expect(res.body.details).toEqual([{ field: 'id', message: 'must not contain NUL (\\u0000)' }]);
    });

    it('refuses NUL in a query filter and in a JSON key or value, naming where', async () => {
      const query = await call<ErrorAnswer>(env.gatewayUrl, '/storage/files?name=a%00', { headers: withKey(tenant.test_key) });
      expect(query.status).toBe(400);
      expect(query.body.message).toBe("Invalid character in query parameter 'name': text may not contain NUL (\\u0000)");
      const value = await send('/storage/secrets', '{"name":"TOKEN","value":"a\\u0000b"}');
      expect([value.status, value.body.code]).toEqual([400, 'invalid_character']);
      expect(value.body.details).toEqual([{ field: 'value', message: 'must not contain NUL (\\u0000)' }]);
      const key = await send('/portal/customers', '{"external_id":"c-1","name":"C","metadata":{"a\\u0000":1}}');
      expect(key.status).toBe(400);
      expect(key.body.details).toEqual([{ field: 'metadata', message: 'must not have a key containing NUL (\\u0000)' }]);
      const surrogate = await send('/portal/customers', '{"external_id":"c-1","name":"C","metadata":{"note":"\\ud800"}}');
      expect(surrogate.status).toBe(400);
      expect(surrogate.body.details).toEqual([{ field: 'metadata.note', message: 'must not contain an unpaired UTF-16 surrogate' }]);
    });

    it('never answers NUL with a 500: in every path parameter and every JSON body of every service', async () => {
      const inPath = operations.filter((op) => op.params).map((op) => ({ ...op, path: fill(op.path, '%00') }));
      const inBody = jsonOperations();
      expect(inPath.length).toBeGreaterThan(20);
      const answers = [
        ...(await oneAtATime(inPath, async (op) => (await call(env.gatewayUrl, op.path, { method: op.method, headers: withKey(tenant.test_key) })).status)),
        ...(await oneAtATime(inBody, async (op) => (await send(op.path, '{"name":"a\\u0000","\\u0000":"\\ud800"}', op.method)).status)),
      ];
      // 400 from the check; a route the test key may not call answers 401 or 403 before it. The
      // gateway's own routes (a service's health or description by name) reach no database: 404.
      const gatewayOwn = (a: { path: string }) => /^\/(actuator\/health|v3\/api-docs)\//.test(a.path);
      expect(answers.filter((a) => (gatewayOwn(a) ? a.status !== 404 : ![400, 401, 403].includes(a.status)))).toEqual([]);
    }, 120_000);
  });

  // A cursor that decodes but holds no id used to reach `$1::uuid` (500); the catalogue's lists took
  // any id-shaped cursor (200). Every list checks what its cursor holds.
  it('refuses a cursor that is not one of the list on every list of every service, never with a 500', async () => {
    const fuzzed = 'eyJpZCI6ImZ6In0'; // {"id":"fz"}
    for (const path of ['/catalog/connectors', '/catalog/templates', '/storage/secrets', '/account/audit-logs']) {
      const res = await call<ErrorAnswer>(env.gatewayUrl, `${path}?cursor=${fuzzed}`, { headers: withKey(tenant.test_key) });
      expect([path, res.status, res.body.code, res.body.details]).toEqual([
        path,
        400,
        'invalid_cursor',
        [{ field: 'cursor', message: 'is not a cursor returned by this list' }],
      ]);
    }
    const lists = operations.filter((op) => op.method === 'GET' && op.paged).map((op) => ({ ...op, path: `${fill(op.path)}?cursor=${fuzzed}` }));
    expect(lists.length).toBeGreaterThan(25);
    const answers = await oneAtATime(lists, async (op) => (await call(env.gatewayUrl, op.path, { headers: withKey(tenant.test_key) })).status);
    // 400 from the cursor; 404 for a list under a parent that does not exist, 401 or 403 for a list the test key may not read.
    expect(answers.filter((a) => ![400, 401, 403, 404].includes(a.status))).toEqual([]);
    expect(answers.filter((a) => a.status === 400).length).toBeGreaterThan(25);
  }, 120_000);

  // 25,000–100,000 array items answered 500 ("Maximum call stack size exceeded") after seconds of
  // validation. An array is refused for its length before any item is looked at.
  it.each([
    ['a data table with 100,000 columns', '/storage/data-tables', `{"name":"t","columns":[${Array(100_000).fill('{"name":1}').join(',')}]}`, 'columns', 100],
    ['a key with 100,000 scopes', '/account/api-keys', `{"name":"k","scopes":[${Array(100_000).fill('1').join(',')}]}`, 'scopes', 64],
    ['a chat with 100,000 messages', '/ai/chat', `{"model":"m","messages":[${Array(100_000).fill('{}').join(',')}]}`, 'messages', 1000],
  ])('refuses %s with 400 too many items, naming the field', async (_name, path, body, field, limit) => {
    const res = await send(path, body);
    expect([res.status, res.body.code]).toEqual([400, 'too_many_items']);
    expect(res.body.details).toEqual([{ field, message: `must contain no more than ${limit} items` }]);
  });

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
