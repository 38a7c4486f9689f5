import { afterAll, describe, expect, it } from '@jest/globals';
import { CodeStep, MAX_CODE_BYTES } from './code.step.js';
import { stepContext, stepFailure } from '../../../test/step-context.js';
import type { StepDefinition, StepSettings } from './step-executor.js';

const SETTINGS: StepSettings = {
  allowPrivateNetworks: false,
  httpResponseLimitBytes: 1024 * 1024,
  httpDefaultTimeoutMs: 5000,
  codeTimeoutMs: 1000,
  codeMemoryLimitBytes: 16 * 1024 * 1024,
};

const context = (signal?: AbortSignal) => stepContext('script', SETTINGS, signal);

const definition = (input?: Record<string, unknown>): StepDefinition => ({ id: 'script', type: 'code', input });

const failure = stepFailure;

describe('CodeStep.validate', () => {
  const executor = new CodeStep();
  afterAll(() => executor.onModuleDestroy());

  it('accepts code, with or without an input, and an expression for either', () => {
    expect(executor.validate(definition({ code: 'return 1' }))).toEqual([]);
    expect(executor.validate(definition({ code: 'return input.a', input: { a: 1 } }))).toEqual([]);
    expect(executor.validate(definition({ code: '{% steps.gen.output.code %}', input: '{% input %}' }))).toEqual([]);
  });

  it('requires the code', () => {
    expect(executor.validate(definition())).toEqual([{ path: 'input.code', message: 'is required' }]);
    expect(executor.validate(definition({}))).toEqual([{ path: 'input.code', message: 'is required' }]);
    expect(executor.validate(definition({ code: '' }))).toEqual([{ path: 'input.code', message: 'is required' }]);
  });

  it('reports every problem with its path', () => {
    expect(executor.validate(definition({ code: 42, inputs: {}, lang: 'py' }))).toEqual([
      { path: 'input.inputs', message: 'is not a field of code (fields: code, input)' },
      { path: 'input.lang', message: 'is not a field of code (fields: code, input)' },
      { path: 'input.code', message: 'must be a string' },
    ]);
  });

  it('limits the code to 64 KiB (in UTF-8 bytes)', () => {
    expect(executor.validate(definition({ code: 'x'.repeat(MAX_CODE_BYTES) }))).toEqual([]);
    expect(executor.validate(definition({ code: 'x'.repeat(MAX_CODE_BYTES + 1) }))).toEqual([{ path: 'input.code', message: 'must be at most 65536 bytes' }]);
    expect(executor.validate(definition({ code: 'é'.repeat(MAX_CODE_BYTES / 2 + 1) }))).toHaveLength(1);
  });
});

describe('CodeStep.execute', () => {
  const executor = new CodeStep({ size: 1 });
  afterAll(() => executor.onModuleDestroy());
  const run = (code: string, input?: unknown, ctx = context()) => executor.execute({ code, input }, definition({ code }), ctx);

  it('returns what the script returns, with the input as a global', async () => {
    await expect(run('return { doubled: input.x * 2, names: input.names.map((n) => n.toUpperCase()) }', { x: 21, names: ['a', 'b'] })).resolves.toEqual({
      doubled: 42,
      names: ['A', 'B'],
    });
  });

  it('awaits an async result and gives JSON: undefined is null, dates are strings, functions vanish', async () => {
    await expect(run('const v = await Promise.resolve(5); return v + 1')).resolves.toBe(6);
    await expect(run('return undefined')).resolves.toBeNull();
    await expect(run('return { d: new Date(0), f() {}, n: null }')).resolves.toEqual({ d: '1970-01-01T00:00:00.000Z', n: null });
    await expect(run('return input', undefined)).resolves.toBeNull();
  });

  it('forwards console output to the step log', async () => {
    const ctx = context();
    await run('console.log("hello", { a: 1 }, [2]); console.warn("careful"); console.error(new TypeError("bad")); return 1', undefined, ctx);
    expect(ctx.lines.map(({ level, message }) => ({ level, message }))).toEqual([
      { level: 'info', message: 'hello {"a":1} [2]' },
      { level: 'warn', message: 'careful' },
      { level: 'error', message: 'TypeError: bad' },
    ]);
  });

  it('fails with code_error, the message and the line when the script throws', async () => {
    const error = await failure(run('const a = 1;\n\nthrow new Error("boom: " + a)'));
    expect([error.code, error.retryable, error.message, error.details?.line]).toEqual(['code_error', false, 'Error: boom: 1 (line 3)', 3]);
  });

  it('refuses an input it cannot run', async () => {
    const error = await failure(executor.execute({ code: 'x'.repeat(MAX_CODE_BYTES + 1) }, definition(), context()));
    expect([error.code, error.retryable]).toEqual(['invalid_input', false]);
  });
});
