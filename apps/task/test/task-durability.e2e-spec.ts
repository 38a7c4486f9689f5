import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { configureNamespace, connectNats, namespaced } from '@platform/messaging';
import {
  createTenant,
  freePort,
  processExited,
  processIds,
  serviceEntry,
  sleep,
  startProcess,
  withKey,
  type ManagedProcess,
  type TestTenant,
} from '@platform/testing';
import { APPROVAL_FLOW, complete, env, gw, taskOf, waitFor, waitingTask, type Json } from './task-helpers.js';

type Service = 'run' | 'task';

async function stop(name: Service): Promise<void> {
  const pids = processIds(env.pidDir, name);
  expect(pids.length).toBeGreaterThan(0);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  for (const pid of pids) await processExited(pid);
}

function restart(name: Service, extra: Record<string, string> = {}): Promise<ManagedProcess> {
  return startProcess({
    name,
    entry: serviceEntry(name),
    env: { ...env.serviceEnv[name], ...extra },
    healthUrl: `${env.serviceUrls[name]}/actuator/health`,
    pidDir: env.pidDir,
  });
}

async function taskReplica(): Promise<ManagedProcess> {
  const port = await freePort();
  return startProcess({
    name: 'task-replica',
    entry: serviceEntry('task'),
    env: { ...env.serviceEnv.task, PORT: String(port) },
    healthUrl: `http://127.0.0.1:${port}/actuator/health`,
    pidDir: env.pidDir,
  });
}

describe('human tasks through service outages', () => {
  let a: TestTenant;
  let nc: NatsConnection;
  let sub: Subscription;
  const expired: string[] = [];
  const extra: ManagedProcess[] = [];

  beforeAll(async () => {
    a = await createTenant(env.gatewayUrl, env.adminToken, 'task-outage');
    configureNamespace(env.serviceEnv.task.NATS_NAMESPACE);
    nc = await connectNats({ url: env.serviceEnv.task.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'task-outage-e2e' });
    sub = nc.subscribe(namespaced('task.task.expired'), {
      callback: (_err, msg) => {
        expired.push((JSON.parse(new TextDecoder().decode(msg.data)) as { data: { data: Json } }).data.data.taskId as string);
      },
    });
  });

  afterAll(async () => {
    for (const p of extra) await p.stop().catch(() => undefined);
    sub?.unsubscribe();
    await nc?.close();
  });

  it('a waiting execution survives a restart of both services, and a completion made while run is stopped resumes it when run is back', async () => {
    const first = await waitingTask(a, APPROVAL_FLOW());
    const second = await waitingTask(a, APPROVAL_FLOW());

    await Promise.all([stop('run'), stop('task')]);
    await Promise.all([restart('run'), restart('task')]);
    expect((await waitFor(a, first.runId, ['waiting'])).status).toBe('waiting');
    expect((await complete(a, first.task.id as string, { decision: 'approve', data: { note: 'after restart' } })).status).toBe(200);
    expect(await waitFor(a, first.runId)).toMatchObject({ status: 'succeeded', output: { shipped: true, note: 'after restart' } });

    // The run service is down while the person decides: the decision waits in the queue.
    await stop('run');
    expect((await complete(a, second.task.id as string, { decision: 'reject' })).status).toBe(200);
    await sleep(1000);
    await restart('run');
    const resumed = await waitFor(a, second.runId);
    expect(resumed).toMatchObject({ status: 'succeeded', output: { shipped: false } });
    expect((resumed.steps as Json[]).filter((s) => s.id === 'held')).toHaveLength(1);
  }, 120_000);

  it('a deadline that passed while the task service was stopped fires once after it starts, with two replicas', async () => {
    // Due far enough ahead that a loaded machine still stops the service first; then wait past it.
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW({ due_in_seconds: 5, on_expiry: 'reject' }));
    await stop('task');
    await sleep(Math.max(0, Date.parse(task.due_at as string) - Date.now()) + 1000);
    expect((await gw(`/run/executions/${runId}`, { headers: withKey(a.test_key) })).body.status).toBe('waiting');
    const [main, second] = await Promise.all([restart('task'), taskReplica()]);
    extra.push(second);
    expect(main).toBeDefined();
    const finished = await waitFor(a, runId);
    expect(finished).toMatchObject({ status: 'succeeded', output: { shipped: false } });
    await sleep(2500);
    expect(expired.filter((id) => id === task.id)).toHaveLength(1);
    expect((finished.steps as Json[]).filter((s) => s.id === 'approve' && s.status === 'succeeded')).toHaveLength(1);
    expect((await gw(`/tasks/${task.id as string}`, { headers: withKey(a.test_key) })).body).toMatchObject({ status: 'expired', decision: 'reject' });
    await second.stop();
  }, 120_000);

  it('cancels the tasks of an execution cancelled while the task service was stopped, once it is back', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW());
    await stop('task');
    expect((await gw(`/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(200);
    await sleep(1500);
    await restart('task', { TASK_EXECUTION_CHECK_MS: '1000' });
    expect((await taskOf(a, runId, a.test_key, 'cancelled')).id).toBe(task.id);
  }, 120_000);
});
