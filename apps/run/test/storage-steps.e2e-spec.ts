import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { env, gw, runToEnd, type Json } from './engine-helpers.js';

const SECRET = `s3cr3t-${Math.random().toString(36).slice(2)}-value`;

describe('workflows using storage: secrets, data tables and files', () => {
  let tenant: TestTenant;
  let db: pg.Client;

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'storage-steps');
    db = new pg.Client({ connectionString: env.databaseUrl });
    await db.connect();
    expect((await gw('/storage/secrets', { headers: withKey(tenant.test_key), body: { name: 'API_TOKEN', value: SECRET } })).status).toBe(201);
    const table = await gw('/storage/data-tables', {
      headers: withKey(tenant.test_key),
      body: {
        name: 'orders',
        columns: [
          { name: 'customer', type: 'text' },
          { name: 'amount', type: 'number' },
        ],
      },
    });
    expect(table.status).toBe(201);
  });

  afterAll(async () => {
    await db?.end();
  });

  it('resolves a secret at run time and keeps its value out of everything stored and answered', async () => {
    const done = await runToEnd(tenant, [
      { id: 'use', type: 'transform', input: { header: '{% "Bearer " & secrets.API_TOKEN %}', length: '{% $length(secrets.API_TOKEN) %}' } },
      {
        id: 'log',
        type: 'code',
        input: { code: 'console.log("token is " + input.t); return { seen: input.t.length }', input: { t: '{% secrets.API_TOKEN %}' } },
      },
    ]);
    expect(done.status).toBe('succeeded');
    expect((done.steps as Json[])[0].output).toEqual({ header: 'Bearer [redacted]', length: SECRET.length });
    const logs = await gw(`/run/executions/${done.id as string}/logs`, { headers: withKey(tenant.test_key) });
    const answered = JSON.stringify(done) + JSON.stringify(logs.body);
    expect(answered).not.toContain(SECRET);
    expect(answered).toContain('token is [redacted]');
    const stored = await db.query<{ everything: string }>(
      `select (select string_agg(coalesce(input::text, '') || coalesce(output::text, '') || coalesce(error::text, ''), '') from run.execution_steps where execution_id = $1) ||
              (select string_agg(message || coalesce(data::text, ''), '') from run.execution_logs where execution_id = $1) ||
              (select coalesce(output::text, '') from run.executions where id = $1) as everything`,
      [done.id],
    );
    expect(stored.rows[0].everything).not.toContain(SECRET);
    const missing = await runToEnd(tenant, [{ id: 'use', type: 'transform', input: { v: '{% secrets.NOPE %}' } }]);
    expect(missing).toMatchObject({ status: 'failed', error: { code: 'secret_missing' } });
  });

  it('resolves secrets named with - and . (written secrets.`name` or secrets."name") and redacts them, in vars after a wait too', async () => {
    const dashed = `sk-${Math.random().toString(36).slice(2)}`;
    const dotted = `pw.${Math.random().toString(36).slice(2)}`;
    for (const [name, value] of [
      ['stripe-key', dashed],
      ['db.password', dotted],
    ]) {
      expect((await gw('/storage/secrets', { headers: withKey(tenant.test_key), body: { name, value } })).status).toBe(201);
    }
    const done = await runToEnd(tenant, [
      {
        id: 'use',
        type: 'transform',
        input: { header: '{% "Bearer " & secrets.`stripe-key` %}', lengths: '{% [$length(secrets.`stripe-key`), $length(secrets."db.password")] %}' },
      },
      { id: 'keep', type: 'set', input: { dsn: '{% "postgres://app:" & secrets.`db.password` & "@db" %}' } },
      { id: 'wait', type: 'delay', input: { seconds: 1 } },
      { id: 'after', type: 'transform', input: { same: '{% vars.dsn = "postgres://app:" & secrets.`db.password` & "@db" %}', dsn: '{% vars.dsn %}' } },
    ]);
    expect(done).toMatchObject({ status: 'succeeded', output: { same: true, dsn: 'postgres://app:[redacted]@db' } });
    expect((done.steps as Json[]).find((s) => s.id === 'use')?.output).toEqual({ header: 'Bearer [redacted]', lengths: [dashed.length, dotted.length] });
    const stored = await db.query<{ everything: string }>(
      `select (select string_agg(coalesce(input::text, '') || coalesce(output::text, ''), '') from run.execution_steps where execution_id = $1) ||
              (select coalesce(output::text, '') from run.executions where id = $1) as everything`,
      [done.id],
    );
    const everything = JSON.stringify(done) + stored.rows[0].everything;
    expect(everything).not.toContain(dashed);
    expect(everything).not.toContain(dotted);
  });

  it('inserts and queries data table rows from steps', async () => {
    const done = await runToEnd(
      tenant,
      [
        { id: 'add', type: 'data.insert', input: { table: 'orders', rows: '{% input.orders %}' } },
        { id: 'sum', type: 'data.query', input: { query: 'select customer, sum(amount) as total from orders group by customer order by customer' } },
        { id: 'out', type: 'transform', input: { totals: '{% steps.sum.output.rows %}' } },
      ],
      {
        orders: [
          { customer: 'acme', amount: 5 },
          { customer: 'acme', amount: 7 },
          { customer: 'globex', amount: 1 },
        ],
      },
    );
    expect(done).toMatchObject({
      status: 'succeeded',
      output: {
        totals: [
          { customer: 'acme', total: 12 },
          { customer: 'globex', total: 1 },
        ],
      },
    });
    const bad = await runToEnd(tenant, [{ id: 'q', type: 'data.query', input: { query: 'select * from pg_class' } }]);
    expect(bad.status).toBe('failed');
    expect((bad.error as Json).step_id).toBe('q');
  });

  it('writes a file and reads it back from steps', async () => {
    const content = Buffer.from('hello from a workflow').toString('base64');
    const done = await runToEnd(tenant, [
      { id: 'w', type: 'file.write', input: { name: 'greeting.txt', contentBase64: content } },
      { id: 'r', type: 'file.read', input: { fileId: '{% steps.w.output.fileId %}' } },
      { id: 'out', type: 'transform', input: { same: `{% steps.r.output.contentBase64 = "${content}" %}`, type: '{% steps.r.output.contentType %}' } },
    ]);
    expect(done).toMatchObject({ status: 'succeeded', output: { same: true, type: 'text/plain' } });
    const listed = await gw('/storage/files?name=greeting', { headers: withKey(tenant.test_key) });
    expect((listed.body.data ?? []).map((f) => f.name)).toContain('greeting.txt');
  });
});
