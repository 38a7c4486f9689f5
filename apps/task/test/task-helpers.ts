import { expect } from '@jest/globals';
import { FINISHED_EXECUTION_STATUSES } from '@platform/messaging';
import { call, e2eEnvironment, eventually, issueToken, withKey, type TestTenant } from '@platform/testing';

export const env = e2eEnvironment();
export type Json = Record<string, unknown> & { data?: Json[]; details?: { field: string; message: string }[] };
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

export async function createWorkflow(tenant: TestTenant, steps: unknown[], key = tenant.test_key): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', { headers: withKey(key), body: { name: `wf-${Math.random().toString(36).slice(2, 8)}`, steps } });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function start(tenant: TestTenant, workflowId: string, input: Record<string, unknown> = {}, key = tenant.test_key): Promise<string> {
  const res = await gw('/v1/automations/run', { headers: withKey(key), body: { automation_id: workflowId, input } });
  expect(res.status).toBe(202);
  return res.body.run_id as string;
}

export async function waitFor(tenant: TestTenant, runId: string, statuses: readonly string[] = FINISHED_EXECUTION_STATUSES, timeoutMs = 20_000): Promise<Json> {
  return eventually(
    `execution ${runId} in ${statuses.join('|')}`,
    async () => {
      const body = (await gw(`/run/executions/${runId}`, { headers: withKey(tenant.test_key) })).body;
      return statuses.includes(body.status as string) ? body : undefined;
    },
    timeoutMs,
    50,
  );
}

/** The task an execution's step made (the task service makes it from a queue: shortly after the execution waits). */
export async function taskOf(tenant: TestTenant, runId: string, key = tenant.test_key, status = 'pending'): Promise<Json> {
  return eventually(
    `the task of ${runId}`,
    async () => {
      const res = await gw(`/tasks?execution_id=${runId}&status=${status}`, { headers: withKey(key) });
      return res.body.data?.[0];
    },
    20_000,
    50,
  );
}

/** Starts a workflow with these steps and returns the execution and its task, once made. */
export async function waitingTask(
  tenant: TestTenant,
  steps: unknown[],
  input: Record<string, unknown> = {},
): Promise<{ runId: string; task: Json; workflowId: string }> {
  const workflowId = await createWorkflow(tenant, steps);
  const runId = await start(tenant, workflowId, input);
  const task = await taskOf(tenant, runId);
  return { runId, task, workflowId };
}

export function complete(tenant: TestTenant, taskId: string, body: Record<string, unknown>, headers: Record<string, string> = withKey(tenant.test_key)) {
  return gw(`/tasks/${taskId}/complete`, { method: 'POST', headers, body });
}

/** A user's bearer token for the tenant's sandbox (where test keys work). */
export async function asUser(tenant: TestTenant, userId: string): Promise<Record<string, string>> {
  const jwt = await issueToken(
    env.jwt.signUrl,
    { sub: userId, email: `${userId.slice(0, 8)}@tasks.test`, tenants: [tenant.tenant_id], authorized_tenants: [tenant.tenant_id] },
    { audience: env.jwt.audience },
  );
  return { authorization: `Bearer ${jwt}`, 'x-selected-tenant': tenant.tenant_id, 'x-selected-env': tenant.sandbox_data_plane_id };
}

/** The steps of an approval that branches on its decision. */
export const APPROVAL_FLOW = (input: Record<string, unknown> = {}) => [
  { id: 'approve', type: 'approval', input: { title: 'Ship it?', context: { version: '{% input.version %}' }, ...input } },
  {
    id: 'branch',
    type: 'condition',
    if: "{% steps.approve.output.decision = 'approve' %}",
    then: [{ id: 'shipped', type: 'transform', input: { shipped: true, note: '{% steps.approve.output.data.note %}' } }],
    else: [{ id: 'held', type: 'transform', input: { shipped: false, by: '{% steps.approve.output.completed_by %}' } }],
  },
];
