import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import pg from 'pg';
import { RunSubjects, StorageSubjects, configureNamespace, connectNats, namespaced } from '@platform/messaging';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, sleep, waitFor, type Json } from './engine-helpers.js';

/** A message seen on NATS: its subject, the context of its envelope and its body. */
interface Seen {
  subject: string;
  context: { requestId?: string; actor?: string; tenantId?: string };
  data: Record<string, unknown>;
}

const WATCHED = [RunSubjects.executionStarted, RunSubjects.executionCompleted, RunSubjects.work, StorageSubjects.secretsResolve, StorageSubjects.filesWrite];

describe('the request id of a run, on every message the run causes', () => {
  let tenant: TestTenant;
  let nc: NatsConnection;
  let db: pg.Client;
  const seen: Seen[] = [];

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'request-id');
    expect(
      (await gw('/storage/secrets', { headers: withKey(tenant.test_key), body: { name: 'RID_TOKEN', value: `token-${randomBytes(8).toString('hex')}` } }))
        .status,
    ).toBe(201);
    // Plain subscriptions, no queue group: a copy of every event, request and work item, beside
    // the services that handle them (a request still gets its one answer from its service).
    configureNamespace(env.serviceEnv.run.NATS_NAMESPACE);
    nc = await connectNats({ url: env.serviceEnv.run.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'request-id-e2e' });
    const decoder = new TextDecoder();
    for (const subject of WATCHED) {
      nc.subscribe(namespaced(subject), {
        callback: (err, msg) => {
          if (err) return;
          const parsed = JSON.parse(decoder.decode(msg.data)) as { data?: Seen; context?: Seen['context'] } & Partial<Seen>;
          // Requests and events are NestJS packets { pattern, data: envelope }; work items are the envelope itself.
          const envelope = (subject === RunSubjects.work ? parsed : parsed.data) as { context: Seen['context']; data: Record<string, unknown> };
          seen.push({ subject, context: envelope.context, data: envelope.data });
        },
      });
    }
    await nc.flush();
    db = new pg.Client({ connectionString: env.databaseUrl });
    await db.connect();
  });

  afterAll(async () => {
    await nc?.close();
    await db?.end();
  });

  async function startWithRequestId(workflowId: string, requestId: string): Promise<string> {
    const res = await gw('/v1/automations/run', {
      headers: { ...withKey(tenant.test_key), 'x-request-id': requestId },
      body: { automation_id: workflowId, input: {} },
    });
    expect(res.status).toBe(202);
    expect(res.headers.get('x-request-id')).toBe(requestId);
    return res.body.run_id as string;
  }

  /** Waits until `count` messages match, then returns every match. */
  async function messages(match: (s: Seen) => boolean, count: number): Promise<Seen[]> {
    for (let i = 0; i < 100 && seen.filter(match).length < count; i++) await sleep(50);
    return seen.filter(match);
  }

  const about = (executionId: string) => (s: Seen) =>
    s.data?.executionId === executionId || s.data?.purpose === `run:execution:${executionId}` || s.context?.actor === `run:execution:${executionId}`;

  it('reaches the events, the secret resolution, the storage step and the child execution, and storage audits it', async () => {
    const requestId = `rid-${randomBytes(6).toString('hex')}`;
    const child = await createWorkflow(tenant, [
      { id: 'save', type: 'file.write', input: { name: 'rid.txt', contentBase64: Buffer.from('rid').toString('base64') } },
    ]);
    const parent = await createWorkflow(tenant, [
      { id: 'token', type: 'transform', input: { length: '{% $length(secrets.RID_TOKEN) %}' } },
      { id: 'sub', type: 'subworkflow', input: { workflow_id: child, input: {} } },
    ]);
    const runId = await startWithRequestId(parent, requestId);
    expect(await waitFor(tenant, runId)).toMatchObject({ status: 'succeeded' });
    const children = await gw(`/run/executions?trigger_type=subworkflow&workflow_id=${child}`, { headers: withKey(tenant.test_key) });
    const childId = (children.body.data as Json[])[0].id as string;

    // The parent resolves its secret on each of its two runs (before and after the child).
    const ofParent = await messages(about(runId), 4);
    const ofChild = await messages(about(childId), 3);
    expect(ofParent.map((s) => s.subject)).toEqual(
      expect.arrayContaining([RunSubjects.executionStarted, StorageSubjects.secretsResolve, RunSubjects.executionCompleted]),
    );
    expect(ofChild.map((s) => s.subject)).toEqual(
      expect.arrayContaining([RunSubjects.executionStarted, StorageSubjects.filesWrite, RunSubjects.executionCompleted]),
    );
    for (const message of [...ofParent, ...ofChild])
      expect({ subject: message.subject, requestId: message.context.requestId }).toEqual({ subject: message.subject, requestId });

    // Storage's own record of who read the secret: it would say something else if the id were lost on the way.
    const audit = await db.query<{ request_id: string | null }>(`select request_id from storage.secret_access_log where purpose = $1`, [
      `run:execution:${runId}`,
    ]);
    expect(audit.rows.length).toBeGreaterThan(0);
    expect(audit.rows.every((r) => r.request_id === requestId)).toBe(true);
  });

  it('keeps it on the work item and the run when the reconciler resumes a long wait from the queue', async () => {
    const requestId = `rid-${randomBytes(6).toString('hex')}`;
    const workflow = await createWorkflow(tenant, [
      { id: 'wait', type: 'delay', input: { seconds: 600 } },
      { id: 'after', type: 'transform', input: { ok: true } },
    ]);
    const runId = await startWithRequestId(workflow, requestId);
    await waitFor(tenant, runId, ['waiting']);
    // As if the ten minutes had passed: a wait that long is woken by the reconciler alone, through the queue.
    await db.query(`update run.execution_steps set wake_at = now() where execution_id = $1 and status = 'waiting'`, [runId]);
    await db.query(`update run.executions set wake_at = now() where id = $1 and status = 'waiting'`, [runId]);
    expect(await waitFor(tenant, runId)).toMatchObject({ status: 'succeeded', output: { ok: true } });

    const [item] = await messages((s) => s.subject === RunSubjects.work && s.data?.executionId === runId, 1);
    expect(item?.context.requestId).toBe(requestId);
    const [completed] = await messages((s) => s.subject === RunSubjects.executionCompleted && s.data?.executionId === runId, 1);
    expect(completed?.context.requestId).toBe(requestId);
    const stored = await db.query<{ request_id: string }>(`select request_id from run.executions where id = $1`, [runId]);
    expect(stored.rows).toEqual([{ request_id: requestId }]);
  });
});
