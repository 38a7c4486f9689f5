import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, start, waitFor } from './engine-helpers.js';

/**
 * `GET /run/executions/{id}` with `Prefer: wait=<s>` (RFC 7240), through the gateway: held until
 * the run is final, answered as it is at the end of the wait, never held for another tenant's id,
 * and an unreadable preference ignored.
 */
describe('GET /run/executions/{id} with Prefer: wait', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'wait-a'), createTenant(env.gatewayUrl, env.adminToken, 'wait-b')]);
  });

  const read = async (tenant: TestTenant, id: string, prefer?: string) => {
    const started = Date.now();
    const res = await gw(`/run/executions/${id}`, { headers: { ...withKey(tenant.test_key), ...(prefer ? { prefer } : {}) }, timeoutMs: 20_000 });
    return { ...res, ms: Date.now() - started };
  };

  it('holds the answer until the run has finished and answers it final, with Preference-Applied', async () => {
    const id = await start(
      a,
      await createWorkflow(a, [
        { id: 'pause', type: 'delay', input: { seconds: 1 } },
        { id: 'done', type: 'set', input: { ok: true } },
      ]),
    );
    const res = await read(a, id, 'wait=10');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'succeeded' });
    expect(res.headers.get('preference-applied')).toBe('wait=10');
    // Answered when the run ended, not at the end of the wait.
    expect(res.ms).toBeGreaterThan(500);
    expect(res.ms).toBeLessThan(6000);
  });

  it('answers at the end of the wait with the status then, the run going on', async () => {
    const id = await start(a, await createWorkflow(a, [{ id: 'pause', type: 'delay', input: { seconds: 30 } }]));
    const res = await read(a, id, 'wait=1');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: expect.stringMatching(/^(queued|running|waiting)$/) });
    expect(res.headers.get('preference-applied')).toBe('wait=1');
    expect(res.ms).toBeGreaterThanOrEqual(950);
    expect(res.ms).toBeLessThan(5000);
    // A cancel is a terminal event too: a held read hears it.
    const held = read(a, id, 'wait=10');
    await new Promise((r) => setTimeout(r, 300));
    expect((await gw(`/run/executions/${id}/cancel`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(200);
    const after = await held;
    expect(after.body).toMatchObject({ status: 'cancelled' });
    expect(after.ms).toBeLessThan(5000);
  });

  it('answers a finished run at once, the wait cut to the longest allowed', async () => {
    const id = await start(a, await createWorkflow(a, [{ id: 'one', type: 'set', input: { v: 1 } }]));
    await waitFor(a, id);
    const res = await read(a, id, 'respond-async, wait=3600');
    expect(res.body).toMatchObject({ id, status: 'succeeded' });
    expect(res.headers.get('preference-applied')).toBe(`wait=${Number(env.serviceEnv.run.EXECUTION_WAIT_MAX_MS ?? 60_000) / 1000}`);
    expect(res.ms).toBeLessThan(2000);
  });

  it('another tenant’s run is 404 at once, without waiting for it', async () => {
    const id = await start(a, await createWorkflow(a, [{ id: 'pause', type: 'delay', input: { seconds: 30 } }]));
    const res = await read(b, id, 'wait=10');
    expect(res.status).toBe(404);
    expect(res.headers.get('preference-applied')).toBeNull();
    expect(res.ms).toBeLessThan(2000);
    expect((await gw(`/run/executions/${id}/cancel`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(200);
  });

  it('ignores an unreadable wait: answered at once, without Preference-Applied', async () => {
    const id = await start(a, await createWorkflow(a, [{ id: 'pause', type: 'delay', input: { seconds: 30 } }]));
    for (const prefer of ['wait=soon', 'wait=-1', 'wait=1.5', 'wait']) {
      const res = await read(a, id, prefer);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id, status: expect.stringMatching(/^(queued|running|waiting)$/) });
      expect(res.headers.get('preference-applied')).toBeNull();
      expect(res.ms).toBeLessThan(900);
    }
    await gw(`/run/executions/${id}/cancel`, { method: 'POST', headers: withKey(a.test_key) });
  });

  it('holds at most EXECUTION_WAIT_MAX_HELD_PER_TENANT reads of one tenant; one more is answered at once, another tenant’s still held', async () => {
    const limit = Number(env.serviceEnv.run.EXECUTION_WAIT_MAX_HELD_PER_TENANT ?? 32);
    const [c, d] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'wait-c'), createTenant(env.gatewayUrl, env.adminToken, 'wait-d')]);
    const pause = [{ id: 'pause', type: 'delay', input: { seconds: 60 } }];
    const [mine, theirs] = await Promise.all([start(c, await createWorkflow(c, pause)), start(d, await createWorkflow(d, pause))]);
    // The tenant's allowance, all held (for up to 15 s)…
    const held = Array.from({ length: limit }, () => read(c, mine, 'wait=15'));
    // …so once they have all reached the service, one more read is not held: no Preference-Applied, at once.
    let over = await read(c, mine, 'wait=1');
    for (let i = 0; i < 20 && over.headers.get('preference-applied') !== null; i++) over = await read(c, mine, 'wait=1');
    expect(over.status).toBe(200);
    expect(over.headers.get('preference-applied')).toBeNull();
    expect(over.ms).toBeLessThan(900);
    // Another tenant's wait is its own: still held and applied.
    const other = await read(d, theirs, 'wait=1');
    expect([other.status, other.headers.get('preference-applied')]).toEqual([200, 'wait=1']);
    expect(other.ms).toBeGreaterThanOrEqual(950);
    // The held ones end when their run does, and the allowance is free again.
    await gw(`/run/executions/${mine}/cancel`, { method: 'POST', headers: withKey(c.test_key) });
    const answers = await Promise.all(held);
    expect(answers.map((r) => [r.status, r.headers.get('preference-applied'), r.body.status])).toEqual(answers.map(() => [200, 'wait=15', 'cancelled']));
    const again = await read(c, mine, 'wait=5');
    expect(again.headers.get('preference-applied')).toBe('wait=5');
    await gw(`/run/executions/${theirs}/cancel`, { method: 'POST', headers: withKey(d.test_key) });
  });

  describe('on a start', () => {
    const startHeld = async (tenant: TestTenant, path: string, body: Record<string, unknown>, prefer: string, extra: Record<string, string> = {}) => {
      const started = Date.now();
      const res = await gw(path, { headers: { ...withKey(tenant.test_key), prefer, ...extra }, body, timeoutMs: 20_000 });
      return { ...res, ms: Date.now() - started };
    };

    it('answers 200 with the finished execution when the run ends within the wait, on both start routes', async () => {
      const id = await createWorkflow(a, [{ id: 'double', type: 'transform', input: { v: '{% input.x * 2 %}' } }]);
      const run = await startHeld(a, '/v1/automations/run', { automation_id: id, input: { x: 21 } }, 'wait=10');
      expect(run.status).toBe(200);
      expect(run.headers.get('preference-applied')).toBe('wait=10');
      expect(run.body).toMatchObject({ workflow_id: id, status: 'succeeded', output: { v: 42 }, steps: [expect.objectContaining({ id: 'double' })] });
      const slow = await createWorkflow(a, [
        { id: 'pause', type: 'delay', input: { seconds: 1 } },
        { id: 'done', type: 'set', input: { ok: true } },
      ]);
      const executed = await startHeld(a, `/run/workflows/${slow}/execute`, { input: {} }, 'wait=10');
      expect([executed.status, executed.body.status, executed.body.output]).toEqual([200, 'succeeded', { ok: true }]);
      expect(executed.ms).toBeGreaterThan(500);
      // The same run is what a read answers.
      expect((await read(a, executed.body.id as string)).body).toEqual(executed.body);
    });

    it('answers the usual 202 with the current status when the wait passes first, and a repeated Idempotency-Key the same way', async () => {
      const id = await createWorkflow(a, [{ id: 'pause', type: 'delay', input: { seconds: 30 } }]);
      const held = await startHeld(a, '/v1/automations/run', { automation_id: id }, 'wait=1', { 'idempotency-key': `held-${id}` });
      expect(held.status).toBe(202);
      expect(held.headers.get('preference-applied')).toBe('wait=1');
      expect(held.body).toEqual({ run_id: expect.any(String), status: expect.stringMatching(/^(queued|running|waiting)$/) });
      expect(held.ms).toBeGreaterThanOrEqual(950);
      const again = await startHeld(a, '/v1/automations/run', { automation_id: id }, 'wait=1', { 'idempotency-key': `held-${id}` });
      expect([again.status, again.body.run_id]).toEqual([202, held.body.run_id]);
      await gw(`/run/executions/${held.body.run_id as string}/cancel`, { method: 'POST', headers: withKey(a.test_key) });
    });

    it('ignores an unreadable wait, and another tenant’s workflow is 404 as always', async () => {
      const id = await createWorkflow(a, [{ id: 'one', type: 'set', input: { v: 1 } }]);
      const plain = await startHeld(a, '/v1/automations/run', { automation_id: id }, 'wait=soon');
      expect([plain.status, plain.body, plain.headers.get('preference-applied')]).toEqual([202, { run_id: expect.any(String), status: 'queued' }, null]);
      const other = await startHeld(b, '/v1/automations/run', { automation_id: id }, 'wait=10');
      expect([other.status, other.headers.get('preference-applied')]).toEqual([404, null]);
    });
  });
});
