import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import pg from 'pg';
import { configureNamespace, connectNats, namespaced } from '@platform/messaging';
import { createTenant, eventually, withKey, type TestTenant } from '@platform/testing';
import { APPROVAL_FLOW, env, gw, taskOf, waitFor, waitingTask, type Json } from './task-helpers.js';

describe('task links, deadlines and events', () => {
  let a: TestTenant;
  let nc: NatsConnection;
  let sub: Subscription;
  const events: { subject: string; data: Json }[] = [];

  beforeAll(async () => {
    a = await createTenant(env.gatewayUrl, env.adminToken, 'task-links');
    configureNamespace(env.serviceEnv.task.NATS_NAMESPACE);
    nc = await connectNats({ url: env.serviceEnv.task.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'task-events-e2e' });
    sub = nc.subscribe(namespaced('task.task.*'), {
      callback: (_err, msg) => {
        const packet = JSON.parse(new TextDecoder().decode(msg.data)) as { pattern: string; data: { data: Json } };
        events.push({ subject: packet.pattern, data: packet.data.data });
      },
    });
  });

  afterAll(async () => {
    sub?.unsubscribe();
    await nc?.close();
  });

  const link = async (taskId: string, body: Record<string, unknown> = {}) => {
    const res = await gw(`/tasks/${taskId}/links`, { method: 'POST', headers: withKey(a.test_key), body });
    expect(res.status).toBe(201);
    return res.body as { url: string; token: string; decisions: string[] } & Json;
  };

  it('a signed link: GET changes nothing, POST works once, then it is refused; tampered and foreign links are refused', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW({ form: { type: 'object', properties: { note: { type: 'string', maxLength: 10 } } } }));
    const other = await waitingTask(a, APPROVAL_FLOW());
    const l = await link(task.id as string, { decisions: ['approve'] });
    expect(l.url).toBe(`/tasks/public/${l.token}`);

    for (let i = 0; i < 3; i++) {
      const shown = await gw(l.url);
      expect(shown.status).toBe(200);
      expect(shown.body).toMatchObject({ task_id: task.id, title: 'Ship it?', decisions: ['approve'] });
    }
    expect((await gw(`/tasks/${task.id as string}`, { headers: withKey(a.test_key) })).body.status).toBe('pending');

    // Tampered: the body names the other task, or the signature is changed.
    const [body, mac] = l.token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${Buffer.from(JSON.stringify({ ...claims, k: other.task.id })).toString('base64url')}.${mac}`;
    expect((await gw(`/tasks/public/${forged}`, { method: 'POST', body: { decision: 'approve' } })).status).toBe(404);
    expect((await gw(`/tasks/public/${body}.${mac.slice(0, -2)}AA`)).status).toBe(404);
    expect((await gw('/tasks/public/not-a-token')).status).toBe(404);
    // Bound to its decisions, and the data to the form (the link stays usable after a 400).
    expect((await gw(l.url, { method: 'POST', body: { decision: 'reject' } })).status).toBe(400);
    expect((await gw(l.url, { method: 'POST', body: { decision: 'approve', data: { note: 'far too long a note' } } })).status).toBe(400);
    // Text jsonb cannot hold is refused before the task is touched, key or value alike.
    const nul = await gw(l.url, { method: 'POST', body: { decision: 'approve', data: { note: 'a\u0000' } } });
    expect([nul.status, nul.body.code]).toEqual([400, 'invalid_character']);
    expect(nul.body.details).toEqual([{ field: 'data.note', message: 'must not contain NUL (\\u0000)' }]);
    expect((await gw(l.url, { method: 'POST', body: { decision: 'approve', data: { 'n\u0000': 'x' } } })).status).toBe(400);
    expect((await gw(`/tasks/public/${body}%00.${mac}`)).status).toBe(400);

    const used = await gw(l.url, { method: 'POST', body: { decision: 'approve', data: { note: 'ok' } } });
    expect(used.status).toBe(200);
    expect(used.body).toMatchObject({ task_id: task.id, status: 'completed', decision: 'approve' });
    expect((await gw(l.url, { method: 'POST', body: { decision: 'approve' } })).status).toBe(409);
    expect((await gw(l.url)).status).toBe(409);
    expect(await waitFor(a, runId)).toMatchObject({ status: 'succeeded', output: { shipped: true, note: 'ok' } });
    expect((await gw(`/tasks/${other.task.id as string}`, { headers: withKey(a.test_key) })).body.status).toBe('pending');

    // Expired, and a link whose task was completed another way.
    const second = await link(other.task.id as string, { expires_in_seconds: 60 });
    const expiredClaims = JSON.parse(Buffer.from(second.token.split('.')[0], 'base64url').toString()) as Record<string, unknown>;
    expect(expiredClaims.x).toBeGreaterThan(Date.now() / 1000);
    const done = await gw(`/tasks/${other.task.id as string}/complete`, { method: 'POST', headers: withKey(a.test_key), body: { decision: 'reject' } });
    expect(done.status).toBe(200);
    expect((await gw(second.url, { method: 'POST', body: { decision: 'approve' } })).status).toBe(409);
  });

  it('names `decisions` when a link asks for a decision the task does not take', async () => {
    const { task } = await waitingTask(a, APPROVAL_FLOW());
    const res = await gw(`/tasks/${task.id as string}/links`, { method: 'POST', headers: withKey(a.test_key), body: { decisions: ['submit'] } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'decisions', message: 'may only hold approve, reject for this task' }]);
  });

  it('refuses an expired link with 410', async () => {
    const { task } = await waitingTask(a, APPROVAL_FLOW());
    const l = await link(task.id as string, { expires_in_seconds: 60 });
    // The database row is the authority on expiry too: move it into the past through the owner's view of time.
    const client = new pg.Client({ connectionString: env.databaseUrl });
    await client.connect();
    try {
      await client.query(`update task.task_links set expires_at = now() - interval '1 second' where task_id = $1`, [task.id]);
    } finally {
      await client.end();
    }
    expect((await gw(l.url)).status).toBe(410);
    expect((await gw(l.url, { method: 'POST', body: { decision: 'approve' } })).status).toBe(410);
  });

  it('deadlines: reject resumes with decision reject, fail fails the step, escalate reassigns and extends once', async () => {
    const rejected = await waitingTask(a, APPROVAL_FLOW({ due_in_seconds: 1, on_expiry: 'reject' }));
    const failed = await waitingTask(a, APPROVAL_FLOW({ due_in_seconds: 1, on_expiry: 'fail' }));
    const escalated = await waitingTask(a, APPROVAL_FLOW({ due_in_seconds: 1, on_expiry: { escalate_to: { user_id: a.user_id }, extend_seconds: 2 } }));

    const r = await waitFor(a, rejected.runId);
    expect(r).toMatchObject({ status: 'succeeded', output: { shipped: false, by: null } });
    expect((r.steps as Json[]).find((s) => s.id === 'approve')?.output).toMatchObject({ decision: 'reject', expired: true });
    expect((await gw(`/tasks/${rejected.task.id as string}`, { headers: withKey(a.test_key) })).body).toMatchObject({ status: 'expired', decision: 'reject' });
    const late = await gw(`/tasks/${rejected.task.id as string}/complete`, { method: 'POST', headers: withKey(a.test_key), body: { decision: 'approve' } });
    expect({ status: late.status, message: late.body.message }).toEqual({ status: 409, message: 'The task has expired: its deadline passed' });

    const f = await waitFor(a, failed.runId);
    expect(f).toMatchObject({ status: 'failed', error: { code: 'task_expired', step_id: 'approve' } });

    const moved = await eventually('the escalation', async () => {
      const t = (await gw(`/tasks/${escalated.task.id as string}`, { headers: withKey(a.test_key) })).body;
      return t.escalated ? t : undefined;
    });
    expect(moved).toMatchObject({ status: 'pending', assignee: { user_id: a.user_id } });
    expect(new Date(moved.due_at as string).getTime()).toBeGreaterThan(new Date(escalated.task.due_at as string).getTime() + 1000);
    const afterEscalation = await waitFor(a, escalated.runId);
    expect(afterEscalation).toMatchObject({ status: 'succeeded', output: { shipped: false } });
    expect(events.filter((e) => e.subject === 'task.task.assigned' && e.data.taskId === escalated.task.id)).toHaveLength(1);
    expect(events.filter((e) => e.subject === 'task.task.expired' && e.data.taskId === escalated.task.id)).toHaveLength(1);
  });

  it('emits created, assigned and completed events', async () => {
    const { task } = await waitingTask(a, APPROVAL_FLOW());
    const id = task.id as string;
    await gw(`/tasks/${id}/assign`, { method: 'POST', headers: withKey(a.test_key), body: { user_id: a.user_id } });
    await gw(`/tasks/${id}/complete`, { method: 'POST', headers: withKey(a.test_key), body: { decision: 'approve' } });
    const seen = await eventually('the three events', () => {
      const mine = events.filter((e) => e.data.taskId === id).map((e) => e.subject);
      return Promise.resolve(mine.length >= 3 ? mine : undefined);
    });
    expect(seen).toEqual(['task.task.created', 'task.task.assigned', 'task.task.completed']);
    expect(events.find((e) => e.subject === 'task.task.completed' && e.data.taskId === id)?.data).toMatchObject({ decision: 'approve', status: 'completed' });
    expect(randomUUID()).not.toBe(id);
    expect((await taskOf(a, task.execution_id as string, a.test_key, 'completed')).id).toBe(id);
  });
});
