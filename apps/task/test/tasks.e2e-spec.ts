import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { APPROVAL_FLOW, asUser, complete, createWorkflow, env, gw, start, taskOf, waitFor, waitingTask, type Json } from './task-helpers.js';

const FORM = {
  type: 'object',
  required: ['amount', 'email'],
  properties: { amount: { type: 'number', minimum: 0 }, email: { type: 'string', format: 'email' }, note: { type: 'string', 'ui:widget': 'textarea' } },
};

describe('human tasks end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'tasks-a'), createTenant(env.gatewayUrl, env.adminToken, 'tasks-b')]);
  });

  it('makes a task with what the person needs, and approve and reject resume down the right branch with the data', async () => {
    const approved = await waitingTask(a, APPROVAL_FLOW(), { version: '1.2.3' });
    expect((await waitFor(a, approved.runId, ['waiting'])).status).toBe('waiting');
    const read = await gw(`/tasks/${approved.task.id as string}`, { headers: withKey(a.test_key) });
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      type: 'approval',
      status: 'pending',
      title: 'Ship it?',
      execution_id: approved.runId,
      workflow_id: approved.workflowId,
      workflow_name: expect.stringMatching(/^wf-/),
      step_id: 'approve',
      context: { version: '1.2.3' },
      decisions: ['approve', 'reject'],
      assignee: null,
    });
    const done = await complete(a, approved.task.id as string, { decision: 'approve', data: { note: 'go' } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ status: 'completed', decision: 'approve', data: { note: 'go' }, completed_by: expect.stringMatching(/^api_key:/) });
    const finished = await waitFor(a, approved.runId);
    expect(finished).toMatchObject({ status: 'succeeded', output: { shipped: true, note: 'go' } });
    const step = (finished.steps as Json[]).find((s) => s.id === 'approve');
    expect(step?.output).toEqual({ decision: 'approve', data: { note: 'go' }, completed_by: done.body.completed_by, completed_at: done.body.completed_at });

    const rejected = await waitingTask(a, APPROVAL_FLOW(), { version: '2' });
    expect((await complete(a, rejected.task.id as string, { decision: 'reject' })).status).toBe(200);
    expect(await waitFor(a, rejected.runId)).toMatchObject({ status: 'succeeded', output: { shipped: false, by: expect.stringMatching(/^api_key:/) } });
    // Pending by default: neither task is listed any more; status=completed lists both.
    const pending = await gw(`/tasks?workflow_id=${approved.workflowId}`, { headers: withKey(a.test_key) });
    expect(pending.body.data).toEqual([]);
    const completed = await gw(`/tasks?status=completed&execution_id=${rejected.runId}`, { headers: withKey(a.test_key) });
    expect(completed.body.data?.map((t) => t.decision)).toEqual(['reject']);
  });

  it('validates form data with the form schema: 400 naming each field, and the task stays open', async () => {
    const { runId, task } = await waitingTask(a, [
      { id: 'expense', type: 'form', input: { title: 'Expense', form: FORM } },
      { id: 'out', type: 'transform', input: { got: '{% steps.expense.output %}' } },
    ]);
    expect(task).toMatchObject({ type: 'form', decisions: ['submit', 'reject'], form: FORM });
    const invalid = await complete(a, task.id as string, { decision: 'submit', data: { amount: -5, email: 'nope' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details?.map((d) => d.field).sort()).toEqual(['data.amount', 'data.email']);
    const missing = await complete(a, task.id as string, { decision: 'submit', data: {} });
    expect(missing.body.details?.map((d) => d.field).sort()).toEqual(['data.amount', 'data.email']);
    expect((await complete(a, task.id as string, { decision: 'approve' })).body.details).toEqual([{ field: 'decision', message: expect.any(String) }]);
    expect((await gw(`/tasks/${task.id as string}`, { headers: withKey(a.test_key) })).body.status).toBe('pending');
    const ok = await complete(a, task.id as string, { decision: 'submit', data: { amount: 12.5, email: 'jo@example.test' } });
    expect(ok.status).toBe(200);
    const finished = await waitFor(a, runId);
    expect(finished.output).toMatchObject({ got: { decision: 'submit', data: { amount: 12.5, email: 'jo@example.test' } } });
  });

  it('refuses a second completion with 409, and of two concurrent completions records one and resumes once', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW());
    const [first, second] = await Promise.all([
      complete(a, task.id as string, { decision: 'approve', data: { note: 'one' } }),
      complete(a, task.id as string, { decision: 'reject', data: { note: 'two' } }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const winner = first.status === 200 ? first : second;
    const finished = await waitFor(a, runId);
    expect(finished.status).toBe('succeeded');
    const branchRuns = (finished.steps as Json[]).filter((s) => s.id === 'shipped' || s.id === 'held');
    expect(branchRuns).toHaveLength(1);
    expect(branchRuns[0].id).toBe(winner.body.decision === 'approve' ? 'shipped' : 'held');
    const again = await complete(a, task.id as string, { decision: 'approve' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('The task has already been completed');
  });

  it('refuses decision data too large for the outcome message with 413, and the task stays open for a decision that fits', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW());
    const big = await complete(a, task.id as string, { decision: 'approve', data: { note: 'x'.repeat(600 * 1024) } });
    expect([big.status, big.body.code]).toEqual([413, 'data_too_large']);
    expect((await gw(`/tasks/${task.id as string}`, { headers: withKey(a.test_key) })).body.status).toBe('pending');
    expect((await complete(a, task.id as string, { decision: 'approve', data: { note: 'fits' } })).status).toBe(200);
    expect((await waitFor(a, runId)).status).toBe('succeeded');
  });

  it('lets the assignee, a member of the assigned team or a tenant key complete; others 403; assigning checks the directory', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW());
    const id = task.id as string;
    expect((await gw(`/tasks/${id}/assign`, { method: 'POST', headers: withKey(a.test_key), body: { user_id: randomUUID() } })).status).toBe(400);
    expect((await gw(`/tasks/${id}/assign`, { method: 'POST', headers: withKey(a.test_key), body: { team_id: randomUUID() } })).status).toBe(400);
    expect((await gw(`/tasks/${id}/assign`, { method: 'POST', headers: withKey(a.test_key), body: {} })).status).toBe(400);
    const assigned = await gw(`/tasks/${id}/assign`, { method: 'POST', headers: withKey(a.test_key), body: { user_id: a.user_id } });
    expect(assigned.status).toBe(200);
    expect(assigned.body.assignee).toEqual({ user_id: a.user_id });
    const mine = await gw('/tasks?assignee=me', { headers: await asUser(a, a.user_id) });
    expect(mine.body.data?.map((t) => t.id)).toContain(id);

    const stranger = await complete(a, id, { decision: 'approve' }, await asUser(a, randomUUID()));
    expect(stranger.status).toBe(403);
    const owner = await complete(a, id, { decision: 'approve' }, await asUser(a, a.user_id));
    expect(owner.status).toBe(200);
    expect(owner.body.completed_by).toBe(a.user_id);
    expect((await waitFor(a, runId)).status).toBe('succeeded');

    // A team: its member may complete, a user outside it may not.
    const members = await gw('/account/team/members', { headers: withKey(a.test_key) });
    const teamId = members.body.data?.[0].team_id as string;
    const team = await waitingTask(a, APPROVAL_FLOW({ assignee: { team_id: teamId } }));
    expect(team.task.assignee).toEqual({ team_id: teamId });
    expect((await complete(a, team.task.id as string, { decision: 'approve' }, await asUser(a, randomUUID()))).status).toBe(403);
    expect((await complete(a, team.task.id as string, { decision: 'reject' }, await asUser(a, a.user_id))).status).toBe(200);
  });

  it("fails an approval step whose assignee is not the tenant's with invalid_task, another tenant's user exactly as an unknown id, making no task", async () => {
    const run = async (input: Record<string, unknown>) => {
      const runId = await start(a, await createWorkflow(a, APPROVAL_FLOW(input)));
      const done = await waitFor(a, runId);
      // No task was asked for: the step failed before it waited.
      expect((await gw(`/tasks?execution_id=${runId}&status=pending`, { headers: withKey(a.test_key) })).body.data).toEqual([]);
      return done;
    };
    const foreign = await run({ assignee: { user_id: b.user_id } });
    const unknown = await run({ assignee: { user_id: randomUUID() } });
    const error = { code: 'invalid_task', message: 'assignee.user_id is not a user of this tenant', step_id: 'approve' };
    for (const done of [foreign, unknown]) {
      expect(done).toMatchObject({ status: 'failed', error });
      expect(done.steps).toEqual([expect.objectContaining({ id: 'approve', status: 'failed', error })]);
    }
    // The escalation target is checked too; a team of the tenant is fine.
    const escalation = await run({ due_in_seconds: 3600, on_expiry: { escalate_to: { team_id: randomUUID() }, extend_seconds: 60 } });
    expect(escalation.error).toEqual({ code: 'invalid_task', message: 'on_expiry.escalate_to.team_id is not a team of this tenant', step_id: 'approve' });
    const members = await gw('/account/team/members', { headers: withKey(a.test_key) });
    const teamId = members.body.data?.[0].team_id as string;
    const fine = await waitingTask(
      a,
      APPROVAL_FLOW({ assignee: { user_id: a.user_id }, due_in_seconds: 3600, on_expiry: { escalate_to: { team_id: teamId }, extend_seconds: 60 } }),
    );
    expect(fine.task.assignee).toEqual({ user_id: a.user_id });
  });

  it('filters the list by deadline and pages it with a cursor', async () => {
    const workflowSteps = (due: boolean) => APPROVAL_FLOW(due ? { due_in_seconds: 3600 } : {});
    const soon = await waitingTask(a, workflowSteps(true));
    const never = await waitingTask(a, workflowSteps(false));
    const before = new Date(Date.now() + 2 * 3600 * 1000).toISOString();
    const due = await gw(`/tasks?due_before=${encodeURIComponent(before)}`, { headers: withKey(a.test_key) });
    const dueIds = due.body.data?.map((t) => t.id) ?? [];
    expect(dueIds).toContain(soon.task.id);
    expect(dueIds).not.toContain(never.task.id);
    const first = await gw('/tasks?limit=1', { headers: withKey(a.test_key) });
    expect(first.body.data).toHaveLength(1);
    const second = await gw(`/tasks?limit=1&cursor=${first.body.next_cursor as string}`, { headers: withKey(a.test_key) });
    expect(second.body.data?.[0].id).not.toBe(first.body.data?.[0].id);
    expect((await gw('/tasks?cursor=garbage', { headers: withKey(a.test_key) })).status).toBe(400);
    expect((await gw('/tasks?status=open', { headers: withKey(a.test_key) })).status).toBe(400);
  });

  it('cancelling an execution cancels its open tasks, which then refuse completion with 409', async () => {
    const { runId, task } = await waitingTask(a, APPROVAL_FLOW());
    expect((await gw(`/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(200);
    const cancelled = await taskOf(a, runId, a.test_key, 'cancelled');
    expect(cancelled.id).toBe(task.id);
    const refused = await complete(a, task.id as string, { decision: 'approve' });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('The task was cancelled: its execution ended');
  });

  it("isolates tenants: B cannot list, read, assign or complete A's tasks (404 as for an unknown id)", async () => {
    const { task } = await waitingTask(a, APPROVAL_FLOW());
    const id = task.id as string;
    expect((await gw('/tasks?status=pending', { headers: withKey(b.test_key) })).body.data).toEqual([]);
    const unknown = randomUUID();
    for (const [method, suffix, body] of [
      ['GET', '', undefined],
      ['POST', '/assign', { user_id: b.user_id }],
      ['POST', '/complete', { decision: 'approve' }],
      ['POST', '/links', {}],
    ] as const) {
      const foreign = await gw(`/tasks/${id}${suffix}`, { method, headers: withKey(b.test_key), body });
      const missing = await gw(`/tasks/${unknown}${suffix}`, { method, headers: withKey(b.test_key), body });
      expect(foreign.status).toBe(404);
      expect({ ...foreign.body, request_id: null }).toEqual({ ...missing.body, request_id: null });
    }
    expect((await gw(`/tasks/${id}`, { headers: withKey(a.test_key) })).body.status).toBe('pending');
  });

  it('shows a customer key only the tasks of its customer', async () => {
    const customer = async (name: string) => (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name } })).body.id as string;
    const [c1, c2] = await Promise.all([customer(`c1-${randomUUID().slice(0, 6)}`), customer(`c2-${randomUUID().slice(0, 6)}`)]);
    const key = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: { name: 'c1-tasks', type: 'customer', customer_id: c1, scopes: ['tasks:read', 'tasks:write'], data_plane_id: a.sandbox_data_plane_id },
    });
    expect(key.status).toBe(201);
    const c1Key = key.body.key as string;
    const steps = APPROVAL_FLOW({ assignee: { customer_id: '{% input.customer %}' } });
    const one = await waitingTask(a, steps, { customer: c1 });
    const two = await waitingTask(a, steps, { customer: c2 });
    expect(one.task.customer_id).toBe(c1);
    const listed = await gw('/tasks', { headers: withKey(c1Key) });
    expect(listed.body.data?.map((t) => t.id)).toEqual([one.task.id]);
    expect((await gw(`/tasks/${two.task.id as string}`, { headers: withKey(c1Key) })).status).toBe(404);
    expect((await complete(a, two.task.id as string, { decision: 'approve' }, withKey(c1Key))).status).toBe(404);
    expect((await complete(a, one.task.id as string, { decision: 'approve' }, withKey(c1Key))).status).toBe(200);
    expect((await waitFor(a, one.runId)).status).toBe('succeeded');
  });
});
