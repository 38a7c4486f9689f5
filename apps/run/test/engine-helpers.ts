import { expect } from '@jest/globals';
import { FINISHED_EXECUTION_STATUSES } from '@platform/messaging';
import { call, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

export const env = e2eEnvironment();
export type Json = Record<string, unknown> & { data?: Record<string, unknown>[] };
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function createWorkflow(tenant: TestTenant, steps: unknown[], extra: Record<string, unknown> = {}, key = tenant.test_key): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', {
    headers: withKey(key),
    body: { name: `wf-${Math.random().toString(36).slice(2, 8)}`, steps, ...extra },
  });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function start(tenant: TestTenant, workflowId: string, input: Record<string, unknown> = {}, key = tenant.test_key): Promise<string> {
  const res = await gw('/v1/automations/run', { headers: withKey(key), body: { automation_id: workflowId, input } });
  expect(res.status).toBe(202);
  expect(res.body).toEqual({ run_id: expect.any(String), status: 'queued' });
  return res.body.run_id as string;
}

/** Polls an execution until it reaches one of `statuses` (default: finished). */
export async function waitFor(
  tenant: TestTenant,
  runId: string,
  statuses: readonly string[] = FINISHED_EXECUTION_STATUSES,
  timeoutMs = 15_000,
  key = tenant.test_key,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  let last: Json = {};
  while (Date.now() < deadline) {
    last = (await gw(`/run/executions/${runId}`, { headers: withKey(key) })).body;
    if (statuses.includes(last.status as string)) return last;
    await sleep(50);
  }
  throw new Error(`execution ${runId} still ${String(last.status)} after ${timeoutMs} ms: ${JSON.stringify(last).slice(0, 600)}`);
}

export async function runToEnd(tenant: TestTenant, steps: unknown[], input: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Promise<Json> {
  return waitFor(tenant, await start(tenant, await createWorkflow(tenant, steps, extra), input));
}
