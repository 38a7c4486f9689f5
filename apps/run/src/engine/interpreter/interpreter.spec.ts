import { describe, expect, it } from '@jest/globals';
import type { NewStepRecord, StepRecord } from '../execution.records.js';
import { Interpreter, type InterpreterHost } from './interpreter.js';
import { Redactor } from '../redaction.js';
import { StepRegistry } from '../step-registry.js';
import type { StepDefinition } from '../steps/step-executor.js';
import { TransformStep } from '../steps/transform.step.js';

function host(recorded: NewStepRecord[]): InterpreterHost {
  return {
    executionId: 'e',
    workerId: 'w',
    workflowId: 'wf',
    tenant: { tenantId: 't', environmentId: 'env', scopeId: null, requestId: 'req-1' },
    settings: { allowPrivateNetworks: false, httpResponseLimitBytes: 1, httpDefaultTimeoutMs: 1, codeTimeoutMs: 1, codeMemoryLimitBytes: 1 },
    signal: new AbortController().signal,
    redactor: new Redactor({}),
    record: (record) => {
      recorded.push(record);
      return Promise.resolve();
    },
    log: () => undefined,
    startChild: () => Promise.resolve('child'),
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

async function replay(steps: StepDefinition[], history: StepRecord[], input: unknown) {
  const registry = new StepRegistry();
  registry.register(new TransformStep());
  const recorded: NewStepRecord[] = [];
  const outcome = await new Interpreter(registry, host(recorded), history, { input, execution: {}, secrets: {} }).run(steps);
  return { outcome, ran: recorded.map((r) => r.path) };
}

describe('replaying control steps', () => {
  const condition: StepDefinition[] = [
    {
      id: 'cond',
      type: 'condition',
      if: '{% input.flag %}',
      then: [{ id: 'a', type: 'transform', input: { branch: 'then' } }, { id: 'b', type: 'transform', input: { done: 'then' } }],
      else: [{ id: 'a', type: 'transform', input: { branch: 'else' } }, { id: 'b', type: 'transform', input: { done: 'else' } }],
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
          { when: 'x', steps: [{ id: 'one', type: 'transform', input: { v: 'x' } }, { id: 'two', type: 'transform', input: { v: 'x2' } }] },
          { when: 'y', steps: [{ id: 'one', type: 'transform', input: { v: 'y' } }, { id: 'two', type: 'transform', input: { v: 'y2' } }] },
        ],
        default: [{ id: 'one', type: 'transform', input: { v: 'd' } }, { id: 'two', type: 'transform', input: { v: 'd2' } }],
      },
    ];
    expect((await replay(steps, [succeeded('sw/1/one', { v: 'y' })], { kind: 'x' })).outcome).toEqual({ status: 'succeeded', output: { v: 'y2' } });
    expect((await replay(steps, [succeeded('sw/default/one', { v: 'd' })], { kind: 'y' })).outcome).toEqual({ status: 'succeeded', output: { v: 'd2' } });
    expect((await replay(steps, [], { kind: 'y' })).outcome).toEqual({ status: 'succeeded', output: { v: 'y2' } });
  });
});
