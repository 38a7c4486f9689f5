import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { withKey, type TestTenant } from '@platform/testing';
import { createCustomer, createWorkflow, customerKey, ECHO_STEPS, finished, gw, NAME_FORM, publish, tenant } from './portal-helpers.js';

describe('published workflows end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let workflow: string;
  let c1: string;
  let c2: string;
  let key1: string;
  let key2: string;
  let toAll: string;
  let toC1: string;
  let bPublished: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([tenant('pub-a'), tenant('pub-b')]);
    workflow = await createWorkflow(a, ECHO_STEPS, NAME_FORM);
    [c1, c2] = await Promise.all([createCustomer(a, 'Globex'), createCustomer(a, 'Initech')]);
    [key1, key2] = await Promise.all([customerKey(a, c1), customerKey(a, c2)]);
    toAll = await publish(a, workflow, 'all_customers');
    toC1 = await publish(
      a,
      workflow,
      { customer_ids: [c1] },
      { title: 'Only Globex', input_form: { type: 'object', properties: { name: { type: 'string' } } } },
    );
    bPublished = await publish(b, await createWorkflow(b, ECHO_STEPS), 'all_customers');
  });

  it('publishes with the workflow input schema as the default form, and validates the body', async () => {
    const got = await gw(`/portal/workflows/${toAll}`, { headers: withKey(a.test_key) });
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: toAll, workflow_id: workflow, visibility: 'all_customers', title: 'Quote', input_form: NAME_FORM });
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await gw('/portal/workflows', {
        headers: withKey(a.test_key),
        body: { workflow_id: workflow, visibility: 'all_customers', title: 'x', ...body },
      });
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toContain(field);
    };
    await bad({ workflow_id: randomUUID() }, 'workflow_id');
    await bad({ visibility: 'everyone' }, 'visibility');
    await bad({ visibility: { customer_ids: [randomUUID()] } }, 'visibility.customer_ids[0]');
    await bad({ visibility: { customer_ids: ['nope'] } }, 'visibility.customer_ids[0]');
    await bad({ title: '' }, 'title');
    await bad({ input_form: { type: 'string' } }, 'input_form');
    await bad({ surprise: 1 }, 'surprise');
  });

  it('shows a customer key only the workflows published to it', async () => {
    const ids = async (key: string, extra: Record<string, string> = {}) =>
      ((await gw('/portal/workflows', { headers: withKey(key, extra) })).body.data ?? []).map((p) => p.id).sort();
    expect(await ids(a.test_key)).toEqual([toAll, toC1].sort());
    expect(await ids(key1)).toEqual([toAll, toC1].sort());
    expect(await ids(key2)).toEqual([toAll]);
    expect(await ids(a.test_key, { 'x-scope-key': c2 })).toEqual([toAll]);
    const hidden = await gw(`/portal/workflows/${toC1}`, { headers: withKey(key2) });
    const unknown = await gw(`/portal/workflows/${randomUUID()}`, { headers: withKey(key2) });
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(unknown.body.message);
    // Customers read and run; they do not publish.
    expect((await gw('/portal/workflows', { headers: withKey(key1), body: { workflow_id: workflow, visibility: 'all_customers', title: 'x' } })).status).toBe(
      403,
    );
    expect((await gw(`/portal/workflows/${toC1}`, { method: 'DELETE', headers: withKey(key1) })).status).toBe(403);
  });

  it('runs a published workflow in the customer scope; each customer sees only its own executions', async () => {
    const run1 = await gw(`/portal/workflows/${toC1}/run`, { headers: withKey(key1), body: { input: { name: 'Ana' } } });
    expect(run1.status).toBe(202);
    expect(run1.body).toMatchObject({ customer_id: c1 });
    const run2 = await gw(`/portal/workflows/${toAll}/run`, { headers: withKey(a.test_key), body: { input: { name: 'Bo' }, customer_id: c2 } });
    expect(run2.status).toBe(202);
    const done = await finished(a, run1.body.run_id as string);
    expect(done).toMatchObject({ status: 'succeeded', customer_id: c1, trigger: { type: 'portal', id: toC1 }, output: { greeting: 'Hello Ana' } });
    await finished(a, run2.body.run_id as string);
    const own = async (key: string) => ((await gw('/run/executions', { headers: withKey(key) })).body.data ?? []).map((e) => e.id);
    expect(await own(key1)).toEqual([run1.body.run_id]);
    expect(await own(key2)).toEqual([run2.body.run_id]);
    expect((await gw(`/run/executions/${run2.body.run_id as string}`, { headers: withKey(key1) })).status).toBe(404);
    // Not published to c2: 404 like an unknown id; a tenant key must name the customer.
    expect((await gw(`/portal/workflows/${toC1}/run`, { headers: withKey(key2), body: {} })).status).toBe(404);
    expect((await gw(`/portal/workflows/${toC1}/run`, { headers: withKey(a.test_key), body: { customer_id: c2 } })).status).toBe(404);
    const noCustomer = await gw(`/portal/workflows/${toAll}/run`, { headers: withKey(a.test_key), body: {} });
    expect(noCustomer.status).toBe(400);
    expect(noCustomer.body.details?.[0].field).toBe('customer_id');
  });

  it('returns the same run for a repeated Idempotency-Key', async () => {
    const send = () => gw(`/portal/workflows/${toAll}/run`, { headers: withKey(key1, { 'idempotency-key': 'k-1' }), body: { input: { name: 'Cy' } } });
    const first = await send();
    const again = await send();
    expect(first.status).toBe(202);
    expect(again.body.run_id).toBe(first.body.run_id);
  });

  it('changes and unpublishes, and keeps tenants apart (404 identical to an unknown id)', async () => {
    const changed = await gw(`/portal/workflows/${toC1}`, { method: 'PATCH', headers: withKey(a.test_key), body: { visibility: { customer_ids: [c2] } } });
    expect(changed.body).toMatchObject({ visibility: { customer_ids: [c2] }, title: 'Only Globex' });
    expect((await gw(`/portal/workflows/${toC1}`, { headers: withKey(key1) })).status).toBe(404);
    expect((await gw(`/portal/workflows/${toC1}`, { headers: withKey(key2) })).status).toBe(200);
    const unknown = await gw(`/portal/workflows/${randomUUID()}`, { headers: withKey(a.test_key) });
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { title: 'hijack' }],
      ['DELETE', undefined],
    ] as const) {
      const foreign = await gw(`/portal/workflows/${bPublished}`, { method, headers: withKey(a.test_key), body });
      expect(foreign.status).toBe(404);
      expect(foreign.body.message).toBe(unknown.body.message);
    }
    expect((await gw(`/portal/workflows/${bPublished}/run`, { headers: withKey(key1), body: {} })).status).toBe(404);
    expect((await gw(`/portal/workflows/${toC1}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw(`/portal/workflows/${toC1}`, { headers: withKey(a.test_key) })).status).toBe(404);
  });
});
