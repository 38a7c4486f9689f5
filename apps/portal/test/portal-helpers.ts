import { expect } from '@jest/globals';
import { isFinished } from '@platform/messaging';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';

export const env = e2eEnvironment();
export type Json = Record<string, unknown> & { data?: Json[]; details?: { field: string; message: string }[] };
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

export const tenant = (name: string): Promise<TestTenant> => createTenant(env.gatewayUrl, env.adminToken, name);

export async function createWorkflow(t: TestTenant, steps: unknown[], inputSchema?: Record<string, unknown>): Promise<string> {
  const res = await gw('/api/v1/workflow/workflows', {
    headers: withKey(t.test_key),
    body: { name: `wf-${Math.random().toString(36).slice(2, 8)}`, steps, ...(inputSchema ? { input_schema: inputSchema } : {}) },
  });
  if (res.status !== 201) throw new Error(`workflow not created: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function createCustomer(t: TestTenant, name: string): Promise<string> {
  const res = await gw('/portal/customers', { headers: withKey(t.test_key), body: { name } });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

export async function customerKey(t: TestTenant, customerId: string, scopes = ['portal:read', 'automations:run', 'executions:read']): Promise<string> {
  const res = await gw('/account/api-keys', {
    headers: withKey(t.test_key),
    body: { name: `key-${customerId.slice(0, 8)}`, type: 'customer', customer_id: customerId, scopes, data_plane_id: t.sandbox_data_plane_id },
  });
  expect(res.status).toBe(201);
  return res.body.key as string;
}

export async function publish(t: TestTenant, workflowId: string, visibility: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  const res = await gw('/portal/workflows', { headers: withKey(t.test_key), body: { workflow_id: workflowId, visibility, title: 'Quote', ...extra } });
  if (res.status !== 201) throw new Error(`not published: ${res.status} ${res.text}`);
  return res.body.id as string;
}

export async function finished(t: TestTenant, runId: string): Promise<Json> {
  return eventually(
    `execution ${runId} finished`,
    async () => {
      const body = (await gw(`/run/executions/${runId}`, { headers: withKey(t.test_key) })).body;
      return isFinished(body.status as string) ? body : undefined;
    },
    20_000,
    50,
  );
}

export const ECHO_STEPS = [{ id: 'echo', type: 'transform', input: { greeting: '{% "Hello " & input.name %}' } }];
export const NAME_FORM = { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'Your name' } } };
