import { describe, expect, it } from '@jest/globals';
import type { ExecutionEvents } from '../execution.events.js';
import type { DraftExecution, RunnableDefinition } from '../execution.records.js';
import type { StepRegistry } from '../step-registry.js';
import type { DefinitionsCache } from './definitions.cache.js';
import { PureRuns } from './pure-runs.js';
import type { RunInterpreter } from './run.interpreter.js';

const definition = { steps: [{ id: 'a', type: 'transform', input: {} }] } as unknown as RunnableDefinition;
const draft = {
  tenant_id: 't',
  environment_id: 'e',
  scope_id: null,
  id: 'x',
  workflow_id: 'w',
  input: {},
  trigger_type: 'api',
  trigger_id: null,
  request_id: 'r',
} as DraftExecution;
const definitions = { peekCurrent: () => ({ version: 3, definition }) } as unknown as DefinitionsCache;
const registry = { get: () => ({ pure: true }) } as unknown as StepRegistry;

/** PureRuns around an interpreter stand-in that hands back the signal it was given. */
function pureRuns(interpret: (signal: AbortSignal) => Promise<unknown>) {
  const interpreter = { interpret: (_e: unknown, _d: unknown, _s: unknown, signal: AbortSignal) => interpret(signal) } as unknown as RunInterpreter;
  return new PureRuns(definitions, registry, interpreter, {} as ExecutionEvents);
}

describe('PureRuns: the 250 ms budget of a run ahead of its row', () => {
  it('a run done in time is returned, and its budget ends with it: the signal is never aborted afterwards', async () => {
    let given: AbortSignal | undefined;
    const done = await pureRuns((signal) => {
      given = signal;
      return Promise.resolve({ outcome: { status: 'succeeded', output: 1 }, steps: [], logs: [] });
    }).runAhead(draft);
    expect(done).toMatchObject({ version: 3, settle: { status: 'succeeded', output: 1 } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(given!.aborted).toBe(false);
  });

  it('a run past the budget is aborted with a TimeoutError and given up (the start runs it the usual way)', async () => {
    let reason: unknown;
    const began = Date.now();
    const done = await pureRuns(
      (signal) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            reason = signal.reason;
            resolve({ outcome: { status: 'timed_out' }, steps: [], logs: [] });
          }),
        ),
    ).runAhead(draft);
    expect(done).toBeUndefined();
    expect(reason).toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - began).toBeGreaterThanOrEqual(240);
  });
});
