import { describe, expect, it } from '@jest/globals';
import { SecretRedactor } from '@platform/common';
import type { NewStepRecord, StepRecord } from '../execution.records.js';
import { Interpreter, type InterpreterHost } from './interpreter.js';
import { StepRegistry } from '../step-registry.js';
import type { StepDefinition } from '../steps/step-executor.js';
import { TransformStep } from '../steps/transform.step.js';

function host(recorded: NewStepRecord[], secrets: Record<string, string> = {}, overrides: Partial<InterpreterHost> = {}): InterpreterHost {
  return {
    executionId: 'e',
    workerId: 'w',
    workflowId: 'wf',
    tenant: { tenantId: 't', environmentId: 'env', scopeId: null, requestId: 'req-1' },
    settings: { allowPrivateNetworks: false, httpResponseLimitBytes: 1, httpDefaultTimeoutMs: 1, codeTimeoutMs: 1, codeMemoryLimitBytes: 1 },
    signal: new AbortController().signal,
    redactor: SecretRedactor.of(secrets),
    record: (record) => {
      recorded.push(record);
      return Promise.resolve();
    },
    flush: () => Promise.resolve(),
    log: () => undefined,
    startChild: () => Promise.resolve('child'),
    unknownAssignee: () => Promise.resolve(undefined),
    requestTask: () => Promise.resolve(),
    ...overrides,
  };
}

const succeeded = (path: string, output: unknown): StepRecord => ({
  id: path,
  path,
  step_id: path.split('/').pop()!,
  type: 'transform',
  status: 'succeeded',
  attempt: 1,
  input: output,
  output,
  error: null,
  wake_at: null,
  started_at: new Date(),
  finished_at: new Date(),
});

/** A `set` step's record; `at` orders records by when they finished. */
const setRecord = (path: string, output: unknown, at = 0): StepRecord => ({
  ...succeeded(path, output),
  type: 'set',
  finished_at: new Date(1_700_000_000_000 + at),
});

async function replay(steps: StepDefinition[], history: StepRecord[], input: unknown, secrets: Record<string, string> = {}) {
  const registry = new StepRegistry();
  registry.register(new TransformStep());
  const recorded: NewStepRecord[] = [];
  const outcome = await new Interpreter(registry, host(recorded, secrets), history, { input, execution: {}, secrets }).run(steps);
  return { outcome, ran: recorded.map((r) => r.path) };
}

describe('replaying control steps', () => {
  const condition: StepDefinition[] = [
    {
      id: 'cond',
      type: 'condition',
      if: '{% input.flag %}',
      then: [
        { id: 'a', type: 'transform', input: { branch: 'then' } },
        { id: 'b', type: 'transform', input: { done: 'then' } },
      ],
      else: [
        { id: 'a', type: 'transform', input: { branch: 'else' } },
        { id: 'b', type: 'transform', input: { done: 'else' } },
      ],
    },
  ];

  it('decides a condition from its expression on a fresh run', async () => {
    const { outcome, ran } = await replay(condition, [], { flag: true });
    expect(outcome).toEqual({ status: 'succeeded', output: { done: 'then' } });
    expect(ran).toEqual(['cond/then/a', 'cond/then/b', 'cond']);
  });

  it('keeps the branch an earlier run went into, even when the expression now says otherwise', async () => {
    const { outcome, ran } = await replay(condition, [succeeded('cond/else/a', { branch: 'else' })], { flag: true });
    expect(outcome).toEqual({ status: 'succeeded', output: { done: 'else' } });
    expect(ran).toEqual(['cond/else/b', 'cond']);
  });

  it('keeps the case of a switch an earlier run went into, the default included', async () => {
    const steps: StepDefinition[] = [
      {
        id: 'sw',
        type: 'switch',
        value: '{% input.kind %}',
        cases: [
          {
            when: 'x',
            steps: [
              { id: 'one', type: 'transform', input: { v: 'x' } },
              { id: 'two', type: 'transform', input: { v: 'x2' } },
            ],
          },
          {
            when: 'y',
            steps: [
              { id: 'one', type: 'transform', input: { v: 'y' } },
              { id: 'two', type: 'transform', input: { v: 'y2' } },
            ],
          },
        ],
        default: [
          { id: 'one', type: 'transform', input: { v: 'd' } },
          { id: 'two', type: 'transform', input: { v: 'd2' } },
        ],
      },
    ];
    expect((await replay(steps, [succeeded('sw/1/one', { v: 'y' })], { kind: 'x' })).outcome).toEqual({ status: 'succeeded', output: { v: 'y2' } });
    expect((await replay(steps, [succeeded('sw/default/one', { v: 'd' })], { kind: 'y' })).outcome).toEqual({ status: 'succeeded', output: { v: 'd2' } });
    expect((await replay(steps, [], { kind: 'y' })).outcome).toEqual({ status: 'succeeded', output: { v: 'y2' } });
  });
});

describe('replaying set steps', () => {
  const delay: StepDefinition = { id: 'd', type: 'delay', input: { seconds: 60 } };
  const read: StepDefinition = { id: 't', type: 'transform', input: { v: '{% vars.x %}' } };

  it('stores the recorded values again after a wait, not values evaluated anew', async () => {
    const steps: StepDefinition[] = [{ id: 's', type: 'set', input: { x: '{% $now() %}' } }, delay, read];
    const { outcome, ran } = await replay(steps, [setRecord('s', { x: 'then' }), succeeded('d', { waited_until: 'x' })], {});
    expect(outcome).toEqual({ status: 'succeeded', output: { v: 'then' } });
    expect(ran).toEqual(['t']);
  });

  it('restores a value holding a secret with the secret, not the redacted record', async () => {
    const steps: StepDefinition[] = [{ id: 's', type: 'set', input: { x: '{% "Bearer " & secrets.TOKEN %}' } }, delay, read];
    const history = [setRecord('s', { x: 'Bearer [redacted]' }), succeeded('d', { waited_until: 'x' })];
    const { outcome } = await replay(steps, history, {}, { TOKEN: 'tok_12345' });
    expect(outcome).toEqual({ status: 'succeeded', output: { v: 'Bearer tok_12345' } });
  });

  it('stores the values of set steps inside a loop that finished before the wait, in the order they ran', async () => {
    const steps: StepDefinition[] = [
      { id: 'l', type: 'loop', items: '{% [1, 2, 3] %}', steps: [{ id: 's', type: 'set', input: { x: '{% item %}' } }] },
      delay,
      read,
    ];
    const history = [
      setRecord('l/2/s', { x: 3 }, 3),
      setRecord('l/0/s', { x: 1 }, 1),
      setRecord('l/1/s', { x: 2 }, 2),
      succeeded('l', [{ x: 1 }, { x: 2 }, { x: 3 }]),
      succeeded('d', {}),
    ];
    const { outcome, ran } = await replay(steps, history, {});
    expect(outcome).toEqual({ status: 'succeeded', output: { v: 3 } });
    expect(ran).toEqual(['t']);
  });

  it('stores the values of a set step inside a branch that is still running', async () => {
    const steps: StepDefinition[] = [
      { id: 'c', type: 'condition', if: '{% true %}', then: [{ id: 's', type: 'set', input: { x: '{% input.v %}' } }, delay, read] },
    ];
    const { outcome, ran } = await replay(steps, [setRecord('c/then/s', { x: 'kept' }), succeeded('c/then/d', {})], { v: 'changed' });
    expect(outcome).toEqual({ status: 'succeeded', output: { v: 'kept' } });
    expect(ran).toEqual(['c/then/t', 'c']);
  });
});

describe('steps that fail before they wait', () => {
  const USER = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01';

  async function run(steps: StepDefinition[], overrides: Partial<InterpreterHost>) {
    const recorded: NewStepRecord[] = [];
    const outcome = await new Interpreter(new StepRegistry(), host(recorded, {}, overrides), [], { input: {}, execution: {}, secrets: {} }).run(steps);
    return { outcome, recorded };
  }

  it('fails an approval whose assignee the tenant does not have with invalid_task, recorded with its input, asking for no task', async () => {
    const asked: unknown[] = [];
    const checked: unknown[] = [];
    const { outcome, recorded } = await run([{ id: 'ask', type: 'approval', input: { title: 'Ok?', assignee: { user_id: USER } } }], {
      unknownAssignee: (task) => {
        checked.push(task.assignee);
        return Promise.resolve('assignee.user_id is not a user of this tenant');
      },
      requestTask: (task) => {
        asked.push(task);
        return Promise.resolve();
      },
    });
    const error = { code: 'invalid_task', message: 'assignee.user_id is not a user of this tenant', step_id: 'ask' };
    expect(outcome).toEqual({ status: 'failed', error });
    expect(checked).toEqual([{ user_id: USER }]);
    expect(asked).toEqual([]);
    expect(recorded).toEqual([
      expect.objectContaining({
        path: 'ask',
        type: 'approval',
        status: 'failed',
        input: { title: 'Ok?', assignee: { user_id: USER } },
        error: { ...error, final: true },
      }),
    ]);
  });

  it('asks for the task when the assignee is known', async () => {
    const asked: unknown[] = [];
    const { outcome, recorded } = await run([{ id: 'ask', type: 'approval', input: { title: 'Ok?', assignee: { user_id: USER } } }], {
      requestTask: (task) => {
        asked.push(task.assignee);
        return Promise.resolve();
      },
    });
    expect(outcome).toEqual({ status: 'waiting', wakeAt: null });
    expect(asked).toEqual([{ user_id: USER }]);
    expect(recorded.map((r) => r.status)).toEqual(['waiting']);
  });

  it('records a subworkflow step whose child could not start as failed, with the reason, and on_error still applies', async () => {
    const steps: StepDefinition[] = [{ id: 'child', type: 'subworkflow', input: { workflow_id: USER, input: { a: 1 } } }];
    const startChild = () => Promise.reject(new Error('Workflow not found'));
    const { outcome, recorded } = await run(steps, { startChild });
    const error = { code: 'subworkflow_failed_to_start', message: 'Workflow not found', step_id: 'child' };
    expect(outcome).toEqual({ status: 'failed', error });
    expect(recorded).toEqual([
      expect.objectContaining({
        path: 'child',
        type: 'subworkflow',
        status: 'failed',
        input: { workflow_id: USER, input: { a: 1 } },
        error: { ...error, final: true },
      }),
    ]);

    const continued = await run([{ ...steps[0], on_error: 'continue' }], { startChild });
    expect(continued.outcome).toEqual({ status: 'succeeded', output: null });
    expect(continued.recorded.map((r) => `${r.path}:${r.status}`)).toEqual(['child:failed']);
  });

  it.each<[string, StepDefinition, string]>([
    ['a subworkflow whose input expression fails', { id: 'x', type: 'subworkflow', input: { workflow_id: '{% $error("no id") %}' } }, 'expression_error'],
    ['an approval whose input expression fails', { id: 'x', type: 'approval', input: { title: '{% $error("no title") %}' } }, 'expression_error'],
    ['a condition whose test fails', { id: 'x', type: 'condition', if: '{% $error("no test") %}', then: [] }, 'expression_error'],
    ['a loop over something that is not a list', { id: 'x', type: 'loop', items: '{% 5 %}', steps: [] }, 'invalid_items'],
    ['a delay without seconds or until', { id: 'x', type: 'delay', input: { seconds: 'soon' } }, 'invalid_delay'],
  ])('records %s as a failed step with its error, and a replay fails it from the record without running it again', async (_case, step, code) => {
    const started: unknown[] = [];
    const startChild = (workflowId: string) => {
      started.push(workflowId);
      return Promise.resolve('child');
    };
    const { outcome, recorded } = await run([step], { startChild });
    expect(outcome).toEqual({ status: 'failed', error: expect.objectContaining({ code, step_id: 'x' }) });
    expect(recorded).toEqual([
      expect.objectContaining({ path: 'x', type: step.type, status: 'failed', error: expect.objectContaining({ code, step_id: 'x', final: true }) }),
    ]);
    expect(started).toEqual([]);

    const history: StepRecord[] = recorded.map((r) => ({ ...r }));
    const again: NewStepRecord[] = [];
    const replayed = await new Interpreter(new StepRegistry(), host(again, {}, { startChild }), history, { input: {}, execution: {}, secrets: {} }).run([step]);
    expect(replayed).toEqual({ status: 'failed', error: expect.objectContaining({ code, step_id: 'x' }) });
    expect(again).toEqual([]);
  });

  it('records one failed record, not two, for a subworkflow whose child could not start', async () => {
    const { recorded } = await run([{ id: 'child', type: 'subworkflow', input: { workflow_id: USER } }], {
      startChild: () => Promise.reject(new Error('Workflow not found')),
    });
    expect(recorded.map((r) => `${r.path}:${r.status}`)).toEqual(['child:failed']);
  });

  it('keeps the start of a delay that waited', async () => {
    const waitedFrom = new Date(Date.now() - 60_000);
    const waiting: StepRecord = {
      ...succeeded('pause', null),
      type: 'delay',
      status: 'waiting',
      input: { seconds: 59 },
      wake_at: new Date(Date.now() - 1_000),
      started_at: waitedFrom,
      finished_at: null,
    };
    const recorded: NewStepRecord[] = [];
    const outcome = await new Interpreter(new StepRegistry(), host(recorded), [waiting], { input: {}, execution: {}, secrets: {} }).run([
      { id: 'pause', type: 'delay', input: { seconds: 59 } },
    ]);
    expect(outcome.status).toBe('succeeded');
    expect(recorded).toEqual([expect.objectContaining({ path: 'pause', status: 'succeeded', started_at: waitedFrom })]);
  });
});
