import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant, sleep, eventually } from '@platform/testing';
import { sign } from '../src/webhooks/signature.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Record<string, unknown>[]; details?: { field: string }[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

async function createWorkflow(tenant: TestTenant, steps: unknown[] = [{ id: 'echo', type: 'transform', input: { got: '{% input.body %}' } }]): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', { headers: withKey(tenant.test_key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps } });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

async function createWebhook(tenant: TestTenant, workflowId: string, extra: Record<string, unknown> = {}): Promise<Json> {
  const res = await gw('/webhooks', {
    headers: withKey(tenant.test_key),
    body: { name: 'hook', workflow_id: workflowId, verification: { type: 'hmac' }, ...extra },
  });
  expect(res.status).toBe(201);
  return res.body;
}

/** A Standard Webhooks delivery as a sender makes it. */
function signed(secret: string, body: string, options: { id?: string; timestamp?: number; tamper?: string } = {}) {
  const id = options.id ?? `msg_${randomUUID()}`;
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': sign(secret, id, timestamp, body),
    },
    body: options.tamper ?? body,
  };
}

async function executionsOf(tenant: TestTenant, workflowId: string): Promise<Record<string, unknown>[]> {
  const all: Record<string, unknown>[] = [];
  let cursor: string | null = null;
  do {
    const page: Json = (
      await gw(`/run/executions?workflow_id=${workflowId}&limit=200${cursor ? `&cursor=${cursor}` : ''}`, { headers: withKey(tenant.test_key) })
    ).body;
    all.push(...(page.data ?? []));
    cursor = (page.next_cursor as string | null) ?? null;
  } while (cursor);
  return all;
}

describe('webhooks end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'webhooks-a'), createTenant(env.gatewayUrl, env.adminToken, 'webhooks-b')]);
  });

  it('starts a run for a validly signed delivery and logs it with its secrets masked', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    expect(hook).toMatchObject({
      id: expect.any(String),
      url: `/webhooks/in/${hook.id as string}`,
      verification: { type: 'hmac' },
      response: { mode: 'async' },
      enabled: true,
    });
    expect(hook.secret).toMatch(/^whsec_/);
    const got = await gw(`/webhooks/${hook.id as string}`, { headers: withKey(a.test_key) });
    expect(got.body.secret).toBeUndefined();

    const res = await gw(hook.url as string, signed(hook.secret as string, JSON.stringify({ order: 42 })));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ run_id: expect.any(String), delivery_id: expect.any(String) });
    const run = await eventually('the run to finish', async () => {
      const r = await gw(`/run/executions/${res.body.run_id as string}`, { headers: withKey(a.test_key) });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.trigger).toEqual({ type: 'webhook', id: hook.id });
    expect(run.output).toEqual({ got: { order: 42 } });

    const logs = await gw(`/webhooks/${hook.id as string}/logs`, { headers: withKey(a.test_key) });
    expect(logs.status).toBe(200);
    expect(logs.body.data).toHaveLength(1);
    expect(logs.body.data![0]).toMatchObject({
      id: res.body.delivery_id,
      outcome: 'accepted',
      status_code: 202,
      run_id: res.body.run_id,
      method: 'POST',
      body: '{"order":42}',
      content_type: 'application/json',
    });
    expect((logs.body.data![0].headers as Record<string, string>)['webhook-signature']).toBe('***');
  });

  it('refuses a tampered body, a stale timestamp and a wrong secret with 401, logged as rejected', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const other = await createWebhook(a, workflowId);
    const url = hook.url as string;
    const body = JSON.stringify({ amount: 1 });
    expect((await gw(url, signed(hook.secret as string, body, { tamper: JSON.stringify({ amount: 1000 }) }))).status).toBe(401);
    expect((await gw(url, signed(hook.secret as string, body, { timestamp: Math.floor(Date.now() / 1000) - 600 }))).status).toBe(401);
    const wrong = await gw(url, signed(other.secret as string, body));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ status: 401, error: 'Unauthorized' });
    expect((await gw(url, { body })).status).toBe(401);

    const logs = await gw(`/webhooks/${hook.id as string}/logs?outcome=rejected`, { headers: withKey(a.test_key) });
    expect(logs.body.data).toHaveLength(4);
    expect(logs.body.data!.every((d) => d.outcome === 'rejected' && d.status_code === 401 && d.run_id === null)).toBe(true);
    expect(logs.body.data!.map((d) => d.reason)).toContain('webhook-timestamp is outside the 5-minute tolerance');
    expect(await executionsOf(a, workflowId)).toHaveLength(0);
    // A rotated secret: the old one stops at once.
    const rotated = await gw(`/webhooks/${hook.id as string}/rotate-secret`, { method: 'POST', headers: withKey(a.test_key) });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect((await gw(url, signed(hook.secret as string, body))).status).toBe(401);
    expect((await gw(url, signed(rotated.body.secret as string, body))).status).toBe(202);
  });

  it('refuses a signed delivery with text the run input cannot hold (NUL, an unpaired surrogate) with 400, starting no run', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const url = hook.url as string;
    const inKey = await gw(url, signed(hook.secret as string, '{"order":{"id\\u0000":42}}'));
    expect([inKey.status, inKey.body.code]).toEqual([400, 'invalid_character']);
    expect(inKey.body.details).toEqual([{ field: 'order', message: 'must not have a key containing NUL (\\u0000)' }]);
    const surrogate = await gw(url, signed(hook.secret as string, '{"note":"\\udc00"}'));
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.details).toEqual([{ field: 'note', message: 'must not contain an unpaired UTF-16 surrogate' }]);
    // A body the intake reads itself: the NUL byte of a text body would go into the run input.
    const token = await createWebhook(a, workflowId, { verification: { type: 'token', header: 'X-Hook-Token' } });
    const text = await gw(token.url as string, { body: 'a\u0000b', headers: { 'x-hook-token': token.secret as string, 'content-type': 'text/plain' } });
    expect(text.status).toBe(400);
    expect(text.body.details).toEqual([{ field: 'body', message: 'must not contain NUL (\\u0000)' }]);
    const fine = await gw(url, signed(hook.secret as string, '{"note":"\\ud83d\\ude00"}'));
    expect(fine.status).toBe(202);
    // The run starts behind the answer (DeliveryStarter): the one delivery that passed starts one.
    await eventually('the accepted delivery’s run', async () => ((await executionsOf(a, workflowId)).length === 1 ? true : undefined));
    await sleep(300);
    expect(await executionsOf(a, workflowId)).toHaveLength(1);
  });

  it('starts one run for the same webhook-id delivered twice, answering the first run id', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const delivery = signed(hook.secret as string, JSON.stringify({ n: 1 }), { id: 'msg_same' });
    const first = await gw(hook.url as string, delivery);
    const second = await gw(hook.url as string, delivery);
    expect(first.status).toBe(202);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ run_id: first.body.run_id, delivery_id: first.body.delivery_id, duplicate: true });
    await eventually('the first delivery’s run', async () => ((await executionsOf(a, workflowId)).length === 1 ? true : undefined));
    await sleep(500);
    expect(await executionsOf(a, workflowId)).toHaveLength(1);
    const dup = await gw(`/webhooks/${hook.id as string}/logs?outcome=duplicate`, { headers: withKey(a.test_key) });
    expect(dup.body.data).toHaveLength(1);
  });

  it('verifies a static token header, accepts form and text bodies byte for byte, and dedupes by Idempotency-Key', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId, { verification: { type: 'token', header: 'X-Hook-Token' } });
    const url = hook.url as string;
    const token = hook.secret as string;
    expect(hook.verification).toEqual({ type: 'token', header: 'X-Hook-Token' });
    expect((await gw(url, { body: { x: 1 }, headers: { 'x-hook-token': 'nope' } })).status).toBe(401);
    const form = await gw(url, { body: 'a=1&b=two', headers: { 'x-hook-token': token, 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(202);
    const text = await gw(url, { body: 'plain  text\n', headers: { 'x-hook-token': token, 'content-type': 'text/plain', 'idempotency-key': 'k1' } });
    expect(text.status).toBe(202);
    const again = await gw(url, { body: 'plain  text\n', headers: { 'x-hook-token': token, 'content-type': 'text/plain', 'idempotency-key': 'k1' } });
    expect(again.body.run_id).toBe(text.body.run_id);
    const run = await eventually('the form run', async () => {
      const r = await gw(`/run/executions/${form.body.run_id as string}`, { headers: withKey(a.test_key) });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.output).toEqual({ got: { a: '1', b: 'two' } });
    const logs = await gw(`/webhooks/${hook.id as string}/logs?outcome=accepted`, { headers: withKey(a.test_key) });
    expect(logs.body.data!.map((d) => d.body)).toEqual(['plain  text\n', 'a=1&b=two']);
    expect((logs.body.data![0].headers as Record<string, string>)['x-hook-token']).toBe('***');
  });

  it('answers 404 for an unknown, malformed or disabled webhook alike', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId, { verification: { type: 'none' } });
    const unknown = await gw(`/webhooks/in/${randomUUID()}`, { body: {} });
    expect(unknown.status).toBe(404);
    expect((await gw('/webhooks/in/not-a-uuid', { body: {} })).status).toBe(404);
    expect((await gw(hook.url as string, { body: {} })).status).toBe(202);
    const disabled = await gw(`/webhooks/${hook.id as string}`, { method: 'PATCH', headers: withKey(a.test_key), body: { enabled: false } });
    expect(disabled.body.enabled).toBe(false);
    const off = await gw(hook.url as string, { body: {} });
    expect(off.status).toBe(404);
    expect({ ...off.body, request_id: null }).toEqual({ ...unknown.body, request_id: null });
  });

  it('starts exactly 200 runs for 200 concurrent deliveries', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => gw(hook.url as string, { ...signed(hook.secret as string, JSON.stringify({ i })), timeoutMs: 60_000 })),
    );
    expect(answers.map((r) => r.status).filter((s) => s !== 202)).toEqual([]);
    expect(new Set(answers.map((r) => r.body.run_id)).size).toBe(200);
    const runs = await eventually(
      '200 executions',
      async () => {
        const list = await executionsOf(a, workflowId);
        return list.length >= 200 ? list : undefined;
      },
      60_000,
    );
    await sleep(1000);
    expect(await executionsOf(a, workflowId)).toHaveLength(runs.length);
    expect(runs).toHaveLength(200);
    // The ids the answers promised are the runs' ids.
    expect(new Set(runs.map((r) => r.id))).toEqual(new Set(answers.map((r) => r.body.run_id)));
  }, 120_000);

  it('accepts one of ten concurrent deliveries with the same webhook-id (written in one batch or several) and answers the rest as duplicates', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const body = JSON.stringify({ once: true });
    const id = `msg_${randomUUID()}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => gw(hook.url as string, signed(hook.secret as string, body, { id }))));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 202]);
    const first = answers.find((r) => r.status === 202)!;
    expect(answers.every((r) => r.body.run_id === first.body.run_id && r.body.delivery_id === first.body.delivery_id)).toBe(true);
    await eventually('the one run', async () => ((await executionsOf(a, workflowId)).length === 1 ? true : undefined));
    await sleep(1000);
    expect(await executionsOf(a, workflowId)).toHaveLength(1);
    const logs = (await gw(`/webhooks/${hook.id as string}/logs?limit=50`, { headers: withKey(a.test_key) })).body.data ?? [];
    expect(logs.map((d) => d.outcome).sort()).toEqual(['accepted', ...Array.from({ length: 9 }, () => 'duplicate')]);
  });

  it('sync mode answers the finished run with its output, replay starts a new run from the stored request', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId, { verification: { type: 'none' }, response: { mode: 'sync', timeout_ms: 20_000 } });
    expect(hook.response).toEqual({ mode: 'sync', timeout_ms: 20_000 });
    const res = await gw(hook.url as string, { body: { q: 'hi' }, timeoutMs: 30_000 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ run_id: expect.any(String), delivery_id: expect.any(String), status: 'succeeded', output: { got: { q: 'hi' } } });

    const replay = await gw(`/webhooks/${hook.id as string}/logs/${res.body.delivery_id as string}/replay`, { method: 'POST', headers: withKey(a.test_key) });
    expect(replay.status).toBe(202);
    expect(replay.body.run_id).not.toBe(res.body.run_id);
    expect(replay.body.replay_of).toBe(res.body.delivery_id);
    const run = await eventually('the replayed run', async () => {
      const r = await gw(`/run/executions/${replay.body.run_id as string}`, { headers: withKey(a.test_key) });
      return r.body.status === 'succeeded' ? r.body : undefined;
    });
    expect(run.output).toEqual({ got: { q: 'hi' } });
  });

  it('sync mode answers 202 with the run id when the run outlives timeout_ms, and reports a failed run', async () => {
    const slow = await createWorkflow(a, [{ id: 'wait', type: 'delay', input: { seconds: 5 } }]);
    const hook = await createWebhook(a, slow, { verification: { type: 'none' }, response: { mode: 'sync', timeout_ms: 300 } });
    const res = await gw(hook.url as string, { body: { q: 1 } });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ run_id: expect.any(String), status: 'running' });

    const failing = await createWorkflow(a, [{ id: 'boom', type: 'fail', input: { message: 'nope', code: 'bad' } }]);
    const hook2 = await createWebhook(a, failing, { verification: { type: 'none' }, response: { mode: 'sync', timeout_ms: 20_000 } });
    const failed = await gw(hook2.url as string, { body: {}, timeoutMs: 30_000 });
    expect(failed.status).toBe(200);
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'bad' } });
  });

  it('keeps tenants apart: another tenant gets 404s identical to an unknown id', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId);
    const id = hook.id as string;
    const unknown = randomUUID();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'x' }],
      ['DELETE', '', undefined],
      ['GET', '/logs', undefined],
      ['POST', '/rotate-secret', undefined],
    ] as const) {
      const theirs = await gw(`/webhooks/${id}${suffix}`, { method, headers: withKey(b.test_key), body });
      const none = await gw(`/webhooks/${unknown}${suffix}`, { method, headers: withKey(b.test_key), body });
      expect([method, suffix, theirs.status]).toEqual([method, suffix, 404]);
      expect({ ...theirs.body, request_id: null }).toEqual({ ...none.body, request_id: null });
    }
    const list = await gw('/webhooks', { headers: withKey(b.test_key) });
    expect(list.body.data!.map((w) => w.id)).not.toContain(id);
    // The live key sees the production environment: not the sandbox webhook either.
    expect((await gw(`/webhooks/${id}`, { headers: withKey(a.live_key) })).status).toBe(404);
    expect((await gw(`/webhooks/${id}`, { headers: withKey(a.test_key) })).status).toBe(200);
  });

  it('refuses a missing or non-object verification or response, on create and on change, with 400 naming the field', async () => {
    const workflowId = await createWorkflow(a);
    const refused = async (method: 'POST' | 'PATCH', path: string, body: Record<string, unknown>, field: string) => {
      const res = await gw(path, { method, headers: withKey(a.test_key), body });
      expect([method, JSON.stringify(body), res.status]).toEqual([method, JSON.stringify(body), 400]);
      expect(res.body.details).toContainEqual({ field, message: 'must be an object' });
    };
    const base = { name: 'x', workflow_id: workflowId };
    // There is no default verification: leaving it out is a 400 (it was a 500), as is an array.
    await refused('POST', '/webhooks', base, 'verification');
    await refused('POST', '/webhooks', { ...base, verification: [] }, 'verification');
    await refused('POST', '/webhooks', { ...base, verification: 'hmac' }, 'verification');
    await refused('POST', '/webhooks', { ...base, verification: { type: 'none' }, response: [] }, 'response');
    await refused('POST', '/webhooks', { ...base, verification: { type: 'none' }, response: 'sync' }, 'response');

    const hook = await createWebhook(a, workflowId, { verification: { type: 'none' } });
    const path = `/webhooks/${hook.id as string}`;
    await refused('PATCH', path, { verification: [] }, 'verification');
    await refused('PATCH', path, { response: [] }, 'response');
    await refused('PATCH', path, { response: [{ mode: 'sync' }] }, 'response');
    expect((await gw(path, { headers: withKey(a.test_key) })).body).toMatchObject({ verification: { type: 'none' }, response: { mode: 'async' } });
    // A sync response without timeout_ms waits the documented default.
    const sync = await gw(path, { method: 'PATCH', headers: withKey(a.test_key), body: { response: { mode: 'sync' } } });
    expect(sync.status).toBe(200);
    expect(sync.body.response).toEqual({ mode: 'sync', timeout_ms: 10_000 });
  });

  it('refuses a delivery whose run input would be over the 1 MiB run-input limit with 413, logs it as rejected and starts nothing', async () => {
    const workflowId = await createWorkflow(a);
    const hook = await createWebhook(a, workflowId, { verification: { type: 'none' } });
    // 2 MiB: under the 10 MiB body limit, over the run service's 1 MiB input limit.
    const big = await gw(hook.url as string, { body: { blob: 'x'.repeat(2 * 1024 * 1024) }, timeoutMs: 30_000 });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ error: 'Payload Too Large', status: 413, code: 'input_too_large', request_id: expect.any(String) });
    // With NATS's default 1 MiB max_payload, what one message carries (less the start request around it) is the smaller limit.
    expect(big.body.message).toMatch(/over the 1008 KiB run-input limit \(NATS max_payload\)/);
    expect(big.body.run_id).toBeUndefined();
    const logs = (await gw(`/webhooks/${hook.id as string}/logs`, { headers: withKey(a.test_key) })).body.data ?? [];
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ outcome: 'rejected', status_code: 413, run_id: null, body_truncated: true });
    expect(logs[0].reason).toMatch(/^run input of \d+ bytes is over the limit of 1032192 \(NATS max_payload\)/);
    // A delivery under the limit still runs.
    expect((await gw(hook.url as string, { body: { small: true } })).status).toBe(202);
    await eventually('the small delivery’s run', async () => ((await executionsOf(a, workflowId)).length === 1 ? true : undefined));
  });

  it('lists with filters and cursor pagination, and refuses bad input naming the field', async () => {
    const workflowId = await createWorkflow(a);
    for (let i = 0; i < 3; i++) await createWebhook(a, workflowId);
    const page1 = await gw(`/webhooks?workflow_id=${workflowId}&limit=2`, { headers: withKey(a.test_key) });
    expect(page1.body.data).toHaveLength(2);
    const page2 = await gw(`/webhooks?workflow_id=${workflowId}&limit=2&cursor=${page1.body.next_cursor as string}`, { headers: withKey(a.test_key) });
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.next_cursor).toBeNull();

    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await gw('/webhooks', { headers: withKey(a.test_key), body });
      expect(res.status).toBe(400);
      expect(res.body.details!.map((d) => d.field)).toContain(field);
    };
    await bad({ name: 'x', workflow_id: 'nope', verification: { type: 'hmac' } }, 'workflow_id');
    await bad({ name: 'x', workflow_id: workflowId, verification: { type: 'magic' } }, 'verification.type');
    await bad({ name: 'x', workflow_id: workflowId, verification: { type: 'token' } }, 'verification.header');
    await bad({ name: 'x', workflow_id: workflowId, verification: { type: 'none' }, response: { mode: 'sync', timeout_ms: 5 } }, 'response.timeout_ms');
    await bad({ workflow_id: workflowId, verification: { type: 'none' } }, 'name');
    expect((await gw('/webhooks/not-a-uuid', { headers: withKey(a.test_key) })).status).toBe(400);
    expect((await gw('/webhooks?outcome=x', { headers: withKey(a.test_key) })).status).toBe(400);
    // A cursor that decodes but is not this list's ({"id":"fz"}) is the client's mistake, not a failed query.
    const forged = await gw('/webhooks?cursor=eyJpZCI6ImZ6In0', { headers: withKey(a.test_key) });
    expect([forged.status, forged.body.code]).toEqual([400, 'invalid_cursor']);
    expect(forged.body.details).toEqual([{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
    expect((await gw(`/webhooks/${page1.body.data![0].id as string}/logs?cursor=eyJpZCI6ImZ6In0`, { headers: withKey(a.test_key) })).status).toBe(400);
  });
});
