import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, eventually, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, runToEnd, sleep, start, waitFor, type Json } from './engine-helpers.js';

describe('the execution engine end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'engine-a'), createTenant(env.gatewayUrl, env.adminToken, 'engine-b')]);
  });

  it('runs a one-step transform through /v1/automations/run and records the version', async () => {
    const done = await runToEnd(a, [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }], { x: 21 });
    expect(done).toMatchObject({ status: 'succeeded', output: { value: 42 }, workflow_version: 1, trigger: { type: 'api', id: null }, error: null });
    expect(done.steps).toEqual([expect.objectContaining({ id: 'double', type: 'transform', status: 'succeeded', attempt: 1, output: { value: 42 } })]);
  });

  it('evaluates expressions over input, earlier steps, vars and the execution', async () => {
    const done = await runToEnd(
      a,
      [
        { id: 'first', type: 'transform', input: { n: '{% input.n + 1 %}' } },
        { id: 'remember', type: 'set', input: { factor: 3 } },
        {
          id: 'second',
          type: 'transform',
          input: { n: '{% steps.first.output.n * vars.factor %}', exec: '{% execution.id %}', literal: 'plain {% not an expression' },
        },
      ],
      { n: 1 },
    );
    expect(done.output).toEqual({ n: 6, exec: done.id, literal: 'plain {% not an expression' });
  });

  it('branches with condition and switch', async () => {
    const steps = (_x: number) => [
      {
        id: 'c',
        type: 'condition',
        if: `{% input.x > 10 %}`,
        then: [{ id: 'big', type: 'transform', input: { size: 'big' } }],
        else: [{ id: 'small', type: 'transform', input: { size: 'small' } }],
      },
      {
        id: 's',
        type: 'switch',
        value: '{% input.color %}',
        cases: [{ when: 'red', steps: [{ id: 'r', type: 'transform', input: { hex: '#f00' } }] }],
        default: [{ id: 'd', type: 'transform', input: { hex: null } }],
      },
      { id: 'out', type: 'transform', input: { size: '{% steps.c.output.size %}', hex: '{% steps.s.output.hex %}' } },
    ];
    expect((await runToEnd(a, steps(50), { x: 50, color: 'red' })).output).toEqual({ size: 'big', hex: '#f00' });
    expect((await runToEnd(a, steps(5), { x: 5, color: 'blue' })).output).toEqual({ size: 'small', hex: null });
  });

  it('loops over items with a concurrency limit and runs parallel branches', async () => {
    const done = await runToEnd(
      a,
      [
        {
          id: 'each',
          type: 'loop',
          items: '{% input.items %}',
          concurrency: 3,
          steps: [{ id: 'sq', type: 'transform', input: { v: '{% item * item %}', i: '{% index %}' } }],
        },
        {
          id: 'both',
          type: 'parallel',
          branches: [[{ id: 'left', type: 'transform', input: { side: 'L' } }], [{ id: 'right', type: 'transform', input: { side: 'R' } }]],
        },
        { id: 'out', type: 'transform', input: { squares: '{% steps.each.output.v %}', sides: '{% steps.both.output.side %}' } },
      ],
      { items: [1, 2, 3, 4, 5] },
    );
    expect(done.output).toEqual({ squares: [1, 4, 9, 16, 25], sides: ['L', 'R'] });
    expect((done.steps as Json[]).filter((s) => s.id === 'sq')).toHaveLength(5);
  });

  it('stops early with stop, fails with fail, and follows on_error continue and goto', async () => {
    const stopped = await runToEnd(a, [
      { id: 'halt', type: 'stop', input: { output: { early: true } } },
      { id: 'never', type: 'transform', input: {} },
    ]);
    expect(stopped).toMatchObject({ status: 'succeeded', output: { early: true } });
    expect((stopped.steps as Json[]).map((s) => s.id)).toEqual(['halt']);

    const failed = await runToEnd(a, [{ id: 'boom', type: 'fail', input: { message: '{% "no " & input.what %}', code: 'bad_input' } }], { what: 'luck' });
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'bad_input', message: 'no luck', step_id: 'boom' } });

    const broken = { type: 'transform', input: { v: '{% $error("kaput") %}' } };
    const continued = await runToEnd(a, [
      { id: 'x', ...broken, on_error: 'continue' },
      { id: 'after', type: 'transform', input: { err: '{% steps.x.error.code %}' } },
    ]);
    expect(continued).toMatchObject({ status: 'succeeded', output: { err: 'expression_error' } });
    const jumped = await runToEnd(a, [
      { id: 'x', ...broken, on_error: { goto: 'rescue' } },
      { id: 'skipped', type: 'transform', input: { no: 1 } },
      { id: 'rescue', type: 'transform', input: { rescued: true } },
    ]);
    expect(jumped).toMatchObject({ status: 'succeeded', output: { rescued: true } });
    expect((jumped.steps as Json[]).map((s) => s.id)).toEqual(['x', 'rescue']);
    const unhandled = await runToEnd(a, [{ id: 'x', ...broken }]);
    expect(unhandled).toMatchObject({ status: 'failed', error: { code: 'expression_error', step_id: 'x' } });
    expect(String((unhandled.error as Json).message)).toContain('kaput');
  });

  it('fails a step whose expression runs away, while other runs go on', async () => {
    const spinning = await createWorkflow(a, [{ id: 'spin', type: 'transform', input: { v: '{% ( $f := function($n){ $f($n + 1) }; $f(0) ) %}' } }]);
    const quick = await createWorkflow(a, [{ id: 'ok', type: 'transform', input: { fine: true } }]);
    const spinId = await start(a, spinning);
    const quickRun = await waitFor(a, await start(a, quick));
    expect(quickRun).toMatchObject({ status: 'succeeded', output: { fine: true } });
    const spun = await waitFor(a, spinId);
    expect(spun).toMatchObject({ status: 'failed', error: { code: 'expression_error', step_id: 'spin' } });
    expect(String((spun.error as Json).message)).toMatch(/timeout after 1000 milliseconds/);
    // The quick run started and ended while the other spun: the worker was not blocked.
    expect(Date.parse(quickRun.finished_at as string)).toBeLessThan(Date.parse(spun.finished_at as string));
  });

  it('waits durably in a delay step, and times out an execution past its deadline', async () => {
    const started = Date.now();
    const delayed = await runToEnd(a, [
      { id: 'wait', type: 'delay', input: { seconds: 1 } },
      { id: 'after', type: 'transform', input: { ok: true } },
    ]);
    expect(delayed).toMatchObject({ status: 'succeeded', output: { ok: true } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    const late = await runToEnd(a, [{ id: 'wait', type: 'delay', input: { seconds: 30 } }], {}, { settings: { timeout_seconds: 1 } });
    expect(late).toMatchObject({ status: 'timed_out', error: { code: 'timed_out' } });
  });

  it('keeps the values of set steps across a wait, those set in a finished loop and inside a branch too', async () => {
    const done = await runToEnd(a, [
      { id: 'remember', type: 'set', input: { factor: 3, at: '{% $now() %}' } },
      { id: 'each', type: 'loop', items: '{% [1, 2] %}', steps: [{ id: 'acc', type: 'set', input: { last: '{% item %}' } }] },
      {
        id: 'branch',
        type: 'condition',
        if: '{% true %}',
        then: [
          { id: 'inner', type: 'set', input: { inner: 'yes' } },
          { id: 'wait', type: 'delay', input: { seconds: 1 } },
        ],
      },
      {
        id: 'after',
        type: 'transform',
        input: { factor: '{% vars.factor %}', last: '{% vars.last %}', inner: '{% vars.inner %}', same: '{% vars.at = steps.remember.output.at %}' },
      },
    ]);
    expect(done).toMatchObject({ status: 'succeeded', output: { factor: 3, last: 2, inner: 'yes', same: true } });
  });

  it('cancels a waiting execution; cancelling a finished one is 409', async () => {
    const runId = await start(a, await createWorkflow(a, [{ id: 'wait', type: 'delay', input: { seconds: 30 } }]));
    await waitFor(a, runId, ['waiting']);
    const cancelled = await gw(`/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(a.test_key) });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: runId, status: 'cancelled' });
    expect((await gw(`/run/executions/${runId}/cancel`, { method: 'POST', headers: withKey(a.test_key) })).status).toBe(409);
    await sleep(300);
    expect((await waitFor(a, runId)).status).toBe('cancelled');
  });

  it('resumes an approval step when its task is completed, and runs a subworkflow to its end', async () => {
    const runId = await start(
      a,
      await createWorkflow(a, [
        { id: 'approve', type: 'approval', input: { title: 'Ship it?' } },
        { id: 'after', type: 'transform', input: { decision: '{% steps.approve.output.decision %}' } },
      ]),
    );
    await waitFor(a, runId, ['waiting']);
    // The task service made the approval's task; completing it resumes the execution.
    const task = await eventually('the approval task', async () => {
      const listed = await gw(`/tasks?execution_id=${runId}`, { headers: withKey(a.test_key) });
      return listed.body.data?.[0];
    });
    await sleep(500);
    const done = await gw(`/tasks/${task.id as string}/complete`, { method: 'POST', headers: withKey(a.test_key), body: { decision: 'approve' } });
    expect(done.status).toBe(200);
    const resumed = await waitFor(a, runId);
    expect(resumed.output).toEqual({ decision: 'approve' });
    // The decided step keeps its input and the time it began waiting: its record spans the wait.
    const approval = (resumed.steps as Json[]).find((s) => s.id === 'approve')!;
    expect(approval).toMatchObject({ status: 'succeeded', input: { title: 'Ship it?' }, output: expect.objectContaining({ decision: 'approve' }) });
    expect(Date.parse(approval.finished_at as string) - Date.parse(approval.started_at as string)).toBeGreaterThanOrEqual(500);

    const child = await createWorkflow(a, [{ id: 'inner', type: 'transform', input: { got: '{% input.v + 1 %}' } }]);
    const parent = await runToEnd(
      a,
      [
        { id: 'sub', type: 'subworkflow', input: { workflow_id: child, input: { v: '{% input.v %}' } } },
        { id: 'out', type: 'transform', input: { result: '{% steps.sub.output.got %}' } },
      ],
      { v: 41 },
    );
    expect(parent).toMatchObject({ status: 'succeeded', output: { result: 42 } });
    const children = await gw(`/run/executions?trigger_type=subworkflow&workflow_id=${child}`, { headers: withKey(a.test_key) });
    expect(children.body.data).toEqual([
      expect.objectContaining({ status: 'succeeded', parent_execution_id: parent.id, trigger: { type: 'subworkflow', id: parent.id } }),
    ]);
  });

  it("records a subworkflow step whose child cannot start as failed with the reason; another tenant's workflow exactly as an unknown one", async () => {
    const foreign = await createWorkflow(b, [{ id: 'inner', type: 'transform', input: {} }]);
    const failures = [];
    for (const workflowId of [foreign, '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f99']) {
      const parent = await runToEnd(a, [
        { id: 'sub', type: 'subworkflow', input: { workflow_id: workflowId, input: {} } },
        { id: 'after', type: 'transform', input: {} },
      ]);
      expect(parent.status).toBe('failed');
      expect((parent.error as Json).code).toBe('subworkflow_failed_to_start');
      expect(parent.steps).toEqual([
        expect.objectContaining({ id: 'sub', type: 'subworkflow', status: 'failed', input: { workflow_id: workflowId, input: {} }, error: parent.error }),
      ]);
      failures.push({ ...(parent.error as Json), message: (parent.error as { message: string }).message.replace(workflowId, '<id>') });
    }
    expect(failures[0]).toEqual(failures[1]);
    // Nothing started in the other tenant.
    expect((await gw(`/run/executions?workflow_id=${foreign}`, { headers: withKey(b.test_key) })).body.data).toEqual([]);
  });

  it('records a subworkflow step whose input expression fails in steps, with its error', async () => {
    const parent = await runToEnd(a, [{ id: 'ctl', type: 'subworkflow', input: { workflow_id: '{% $error("x") %}' } }]);
    expect(parent.steps).toEqual([expect.objectContaining({ id: 'ctl', type: 'subworkflow', status: 'failed', error: parent.error })]);
  });

  it('keeps versions: an update makes a new version, and runs record the one they used', async () => {
    const id = await createWorkflow(a, [{ id: 'v', type: 'transform', input: { version: 1 } }]);
    const first = await waitFor(a, await start(a, id));
    const updated = await gw(`/run/workflows/${id}`, {
      method: 'PATCH',
      headers: withKey(a.test_key),
      body: { steps: [{ id: 'v', type: 'transform', input: { version: 2 } }] },
    });
    expect(updated.body).toMatchObject({ version: 2 });
    const second = await waitFor(a, await start(a, id));
    expect([first.workflow_version, first.output, second.workflow_version, second.output]).toEqual([1, { version: 1 }, 2, { version: 2 }]);
    expect((await gw(`/run/workflows/${id}?version=1`, { headers: withKey(a.test_key) })).body.steps).toEqual([
      { id: 'v', type: 'transform', input: { version: 1 } },
    ]);
    const listed = await gw(`/run/executions?workflow_id=${id}&status=succeeded`, { headers: withKey(a.test_key) });
    expect(listed.body.data).toHaveLength(2);
    const logs = await gw(`/run/executions/${second.id as string}/logs?level=info`, { headers: withKey(a.test_key) });
    expect(logs.body.data).toEqual([expect.objectContaining({ step_id: 'v', level: 'info', message: 'transform v succeeded' })]);
    expect((await gw(`/run/workflows/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await gw('/v1/automations/run', { headers: withKey(a.test_key), body: { automation_id: id, input: {} } })).status).toBe(404);
  });

  it('honours Idempotency-Key: the same request returns the same run, another body is 409', async () => {
    const id = await createWorkflow(a, [{ id: 't', type: 'transform', input: { x: '{% input.x %}' } }]);
    const send = (x: number) =>
      gw('/v1/automations/run', { headers: withKey(a.test_key, { 'idempotency-key': `k-${id}` }), body: { automation_id: id, input: { x } } });
    const one = await send(1);
    const two = await send(1);
    expect(two.body.run_id).toBe(one.body.run_id);
    expect((await send(2)).status).toBe(409);
  });

  describe('isolation', () => {
    it("hides tenant A's executions and workflows from tenant B (404), and production from a test key", async () => {
      const wf = await createWorkflow(a, [{ id: 't', type: 'transform', input: {} }]);
      const run = await start(a, wf);
      await waitFor(a, run);
      for (const [method, path] of [
        ['GET', `/run/executions/${run}`],
        ['GET', `/run/executions/${run}/logs`],
        ['POST', `/run/executions/${run}/cancel`],
        ['GET', `/run/workflows/${wf}`],
        ['POST', `/run/workflows/${wf}/execute`],
      ]) {
        const res = await gw(path, { method, headers: withKey(b.test_key), body: method === 'POST' ? {} : undefined });
        expect({ path, status: res.status }).toEqual({ path, status: 404 });
      }
      expect(((await gw('/run/executions', { headers: withKey(b.test_key) })).body.data ?? []).map((e) => e.id)).not.toContain(run);
      expect((await gw(`/run/executions/${run}`, { headers: withKey(a.live_key) })).status).toBe(404);
      expect((await gw('/v1/automations/run', { headers: withKey(b.test_key), body: { automation_id: wf, input: {} } })).status).toBe(404);
    });

    it("shows a customer key only its customer's executions", async () => {
      const customer = (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name: 'Runner Co' } })).body.id as string;
      const key = (
        await gw('/account/api-keys', {
          headers: withKey(a.test_key),
          body: {
            name: 'runner',
            type: 'customer',
            customer_id: customer,
            scopes: ['automations:run', 'executions:read', 'executions:write', 'workflows:read', 'workflows:write'],
            data_plane_id: a.sandbox_data_plane_id,
          },
        })
      ).body.key as string;
      const wf = await createWorkflow(a, [{ id: 't', type: 'transform', input: { who: '{% input.who %}' } }]);
      const tenantRun = await start(a, wf, { who: 'tenant' });
      const customerRun = await start(a, wf, { who: 'customer' }, key);
      const mine = await waitFor(a, customerRun, undefined, 15_000, key);
      expect(mine).toMatchObject({ status: 'succeeded', customer_id: customer, output: { who: 'customer' } });
      expect((await gw(`/run/executions/${tenantRun}`, { headers: withKey(key) })).status).toBe(404);
      expect(((await gw('/run/executions', { headers: withKey(key) })).body.data ?? []).map((e) => e.id)).toEqual([customerRun]);
      // It can read and run the tenant's workflow, but neither change nor delete it.
      expect((await gw(`/run/workflows/${wf}`, { headers: withKey(key) })).status).toBe(200);
      expect((await gw(`/run/workflows/${wf}`, { method: 'PATCH', headers: withKey(key), body: { name: 'hijacked' } })).status).toBe(404);
      expect((await gw(`/run/workflows/${wf}`, { method: 'DELETE', headers: withKey(key) })).status).toBe(404);
      expect((await gw(`/run/workflows/${wf}`, { headers: withKey(a.test_key) })).body).toMatchObject({ version: 1, name: expect.stringMatching(/^wf-/) });
      // The tenant key sees both.
      const all = ((await gw(`/run/executions?workflow_id=${wf}`, { headers: withKey(a.test_key) })).body.data ?? []).map((e) => e.id);
      expect(all.sort()).toEqual([tenantRun, customerRun].sort());
    });
  });

  describe('bad input', () => {
    it('rejects an invalid definition at save with every problem listed', async () => {
      const res = await gw('/run/workflows', {
        headers: withKey(a.test_key),
        body: {
          name: 'broken',
          steps: [
            { id: 'a', type: 'teleport' },
            { id: 'a', type: 'transform', input: { v: '{% 1 + %}' }, on_error: { goto: 'first' } },
            { id: 'b', type: 'transform', on_error: { goto: 'a' } },
            { id: 'l', type: 'loop', steps: [] },
          ],
        },
      });
      expect(res.status).toBe(400);
      const fields = (res.body.details as { field: string }[]).map((d) => d.field);
      expect(fields).toEqual(
        expect.arrayContaining([
          'steps[0].type',
          'steps[1].id',
          'steps[1].input.v',
          'steps[1].on_error.goto',
          'steps[2].on_error.goto',
          'steps[3].items',
          'steps[3].steps',
        ]),
      );
      const validated = await gw('/run/workflows/validate', {
        headers: withKey(a.test_key),
        body: {
          steps: [
            { id: 'x', type: 'http.request', input: {} },
            { id: 'y', type: 'delay' },
          ],
        },
      });
      expect(validated.status).toBe(200);
      expect(validated.body.valid).toBe(false);
      expect((validated.body.problems as { step_id: string; path: string }[]).map((p) => [p.step_id, p.path])).toEqual(
        expect.arrayContaining([['y', 'steps[1].input']]),
      );
    });

    it('answers 404 for an unknown automation, 413 for an oversized input and 400 for a malformed start', async () => {
      expect(
        (await gw('/v1/automations/run', { headers: withKey(a.test_key), body: { automation_id: '00000000-0000-4000-8000-000000000000', input: {} } })).status,
      ).toBe(404);
      const wf = await createWorkflow(a, [{ id: 't', type: 'transform', input: {} }]);
      const big = await gw('/v1/automations/run', { headers: withKey(a.test_key), body: { automation_id: wf, input: { blob: 'x'.repeat(1_100_000) } } });
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ error: 'Payload Too Large', status: 413 });
      for (const body of [
        { automation_id: 'nope', input: {} },
        { automation_id: wf, input: 'text' },
        { automation_id: wf, extra: 1 },
      ]) {
        const res = await gw('/v1/automations/run', { headers: withKey(a.test_key), body });
        expect(res.status).toBe(400);
      }
      expect((await gw('/run/executions?status=exploded', { headers: withKey(a.test_key) })).status).toBe(400);
      expect((await gw('/run/executions/not-a-uuid', { headers: withKey(a.test_key) })).status).toBe(400);
    });
  });
});

describe('run data in /v1/data/query', () => {
  it("answers SQL over the caller's own workflows and executions only", async () => {
    const [mine, theirs] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'sql-a'), createTenant(env.gatewayUrl, env.adminToken, 'sql-b')]);
    const wf = await createWorkflow(mine, [{ id: 't', type: 'transform', input: {} }]);
    await waitFor(mine, await start(mine, wf));
    await waitFor(mine, await start(mine, wf));
    await createWorkflow(theirs, [{ id: 't', type: 'transform', input: {} }]);
    const query = `select w.name, count(e.id)::int as runs, sum(case when e.status = 'succeeded' then 1 else 0 end)::int as ok
                     from workflows w join executions e on e.workflow_id = w.id group by w.name`;
    const res = await gw('/v1/data/query', { headers: withKey(mine.test_key), body: { query } });
    expect(res.status).toBe(200);
    expect(res.body.rows).toEqual([{ name: expect.stringMatching(/^wf-/), runs: 2, ok: 2 }]);
    const other = await gw('/v1/data/query', { headers: withKey(theirs.test_key), body: { query: 'select count(*)::int as n from executions' } });
    expect(other.body.rows).toEqual([{ n: 0 }]);
  });
});
