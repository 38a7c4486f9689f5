import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten';
import type { LogLevel } from '../step-executor.js';
import { SandboxMemoryFull, type SandboxModule } from './sandbox-module.js';
import type { SandboxJob, SandboxResult } from './sandbox.protocol.js';

export interface SandboxHooks {
  log(level: LogLevel, message: string): void;
  /** True once the step was aborted (read by the interrupt handler, so it must be cheap). */
  cancelled(): boolean;
}

const FILENAME = 'code.js';
/**
 * After the script stops, reading its error or output gets this much more time and memory; the
 * memory is set aside in the sandbox's heap while the script runs, so the script cannot take it.
 */
const EPILOGUE_MS = 100;
export const EPILOGUE_MEMORY_BYTES = 1024 * 1024;
const LEVELS = new Set<LogLevel>(['debug', 'info', 'warn', 'error']);

/**
 * Runs before the script, in the sandbox, and returns the helpers the host needs afterwards. They
 * capture the original JSON functions, so a script that replaces `JSON` changes only its own view.
 * The host never calls a property of a script's value itself: a getter could run without limits.
 */
const BOOTSTRAP = `(function (hostLog, inputJson) {
  'use strict';
  const stringify = JSON.stringify, parse = JSON.parse, toText = String, MAX = 2048;
  const text = (value) => { try { return toText(value); } catch (e) { return '[unprintable]'; } };
  const format = (args) => {
    let out = '';
    for (let i = 0; i < args.length && out.length <= MAX; i++) {
      const value = args[i];
      let piece;
      if (typeof value === 'string') piece = value;
      else if (value instanceof Error) piece = text(value.name) + ': ' + text(value.message);
      else { try { piece = stringify(value); } catch (e) { piece = undefined; } if (piece === undefined) piece = text(value); }
      out += (i ? ' ' : '') + piece;
    }
    return out.length > MAX ? out.slice(0, MAX) : out;
  };
  const method = (level) => function () { hostLog(level, format(arguments)); };
  const console = { log: method('info'), info: method('info'), debug: method('debug'), warn: method('warn'), error: method('error') };
  Object.defineProperty(globalThis, 'console', { value: console, writable: true, configurable: true });
  Object.defineProperty(globalThis, 'input', { value: parse(inputJson), writable: true, configurable: true });
  return {
    serialize(value) { const json = stringify(value); return json === undefined ? 'null' : json; },
    describe(error) {
      try {
        if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
          const name = error.name, message = error.message, stack = error.stack, line = error.lineNumber;
          return stringify({
            name: typeof name === 'string' ? name.slice(0, 200) : undefined,
            message: (message === undefined ? text(error) : text(message)).slice(0, 4000),
            stack: typeof stack === 'string' ? stack.slice(0, 4000) : undefined,
            line: typeof line === 'number' ? line : undefined,
          });
        }
        return stringify({ message: text(error).slice(0, 4000) });
      } catch (e) {
        return '{"message":"the script threw a value that cannot be described"}';
      }
    },
  };
})`;

interface Described {
  name?: string;
  message: string;
  stack?: string;
  line?: number;
}

type Failure = Pick<Extract<SandboxResult, { ok: false }>, 'code' | 'message' | 'details'>;

/** Ends a run early with a failure (thrown inside runInSandbox only). */
class Stop extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
}

/**
 * Runs one script in a fresh QuickJS runtime and context, always disposed (a leaked handle aborts
 * the WASM module on dispose). The script is the body of an async function, so `return` gives the
 * output and `await` works; the sandbox has no timers or I/O, so every promise settles while
 * pending jobs run. Synchronous: call it from a worker thread, not the event loop.
 */
export function runInSandbox(sandbox: SandboxModule, job: SandboxJob, hooks: SandboxHooks): SandboxResult {
  let run: SandboxRun;
  try {
    run = new SandboxRun(sandbox, job, hooks);
  } catch (error) {
    // The heap of an idle module is empty: no room for a new runtime means it holds leaked memory.
    return { ok: false, code: 'code_internal_error', message: `the sandbox could not start: ${(error as Error).message}`, droppedLogLines: 0, poisoned: true };
  }
  let outcome: { ok: true; outputJson: string } | ({ ok: false } & Failure);
  try {
    outcome = run.execute();
  } catch (error) {
    if (error instanceof Stop) outcome = { ok: false, ...error.failure };
    else if (error instanceof SandboxMemoryFull) {
      // The heap filled up while the host was copying into it: the run is over its limit.
      run.poisoned = true;
      outcome = { ok: false, code: 'code_memory_limit', message: `the script used more than ${job.memoryLimitBytes} bytes of memory` };
    } else {
      // A failure of the host side of QuickJS (a native stack overflow inside WASM, an abort): the
      // module's state is unknown, so nothing more is run in it and the worker is retired.
      run.poisoned = true;
      const overflow = error instanceof RangeError;
      outcome = {
        ok: false,
        code: overflow ? 'code_error' : 'code_internal_error',
        message: overflow ? 'InternalError: stack overflow' : `the sandbox failed: ${(error as Error).message}`,
      };
    }
  }
  run.dispose();
  return { ...outcome, droppedLogLines: run.droppedLogLines, ...(run.poisoned ? { poisoned: true } : {}) };
}

class SandboxRun {
  droppedLogLines = 0;
  /** Set when the WASM module may be corrupt or hold leaked memory: its worker is retired. */
  poisoned = false;
  private logLines = 0;
  private stopReason: 'timeout' | 'aborted' | undefined;
  private importAttempted = false;
  private deadline: number;
  private readonly handles: QuickJSHandle[] = [];
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  /** Frees the epilogue's memory, set aside before the runtime exists. */
  private readonly releaseEpilogueMemory: () => void;

  constructor(
    private readonly sandbox: SandboxModule,
    private readonly job: SandboxJob,
    private readonly hooks: SandboxHooks,
  ) {
    this.deadline = Date.now() + job.timeoutMs;
    this.releaseEpilogueMemory = sandbox.reserve(EPILOGUE_MEMORY_BYTES);
    sandbox.startRun();
    this.runtime = sandbox.quickjs.newRuntime();
    // The module's capped memory bounds the run as a whole (see SandboxModule); QuickJS's own
    // limit only refuses a single allocation larger than this, before the heap is touched.
    this.runtime.setMemoryLimit(job.memoryLimitBytes);
    this.runtime.setMaxStackSize(job.maxStackBytes);
    this.runtime.setInterruptHandler(() => {
      if (hooks.cancelled()) this.stopReason ??= 'aborted';
      else if (Date.now() > this.deadline) this.stopReason ??= 'timeout';
      return this.stopReason !== undefined;
    });
    // Dynamic import() reaches the loader when pending jobs run; refuse it and remember the attempt.
    this.runtime.setModuleLoader((name) => {
      this.importAttempted = true;
      return { error: new Error(`import of '${name}' is not available in the code step`) };
    });
    this.vm = this.runtime.newContext();
  }

  execute(): { ok: true; outputJson: string } {
    const { vm, job } = this;
    if (Buffer.byteLength(job.inputJson, 'utf8') > job.memoryLimitBytes) {
      throw new Stop({ code: 'code_memory_limit', message: `the input does not fit in the script's ${job.memoryLimitBytes} bytes of memory` });
    }
    const hostLog = this.keep(vm.newFunction('hostLog', (level, text) => this.log(level, text)));
    const setup = this.keep(unwrap(vm, vm.evalCode(BOOTSTRAP, 'bootstrap.js', { type: 'global', strict: true })));
    const inputJson = this.keep(vm.newString(job.inputJson));
    const installed = vm.callFunction(setup, vm.undefined, hostLog, inputJson);
    if (installed.error) {
      // No script has run yet: only an input too large for the memory limit gets here.
      const reason = vm.dump(this.keep(installed.error)) as { message?: unknown } | undefined;
      this.poisoned = true;
      throw new Stop({
        code: 'code_memory_limit',
        message: `the input does not fit in the script's ${job.memoryLimitBytes} bytes of memory (${typeof reason?.message === 'string' ? reason.message : 'unknown error'})`,
      });
    }
    const tools = this.keep(installed.value);
    const serialize = this.keep(vm.getProp(tools, 'serialize'));
    const describe = this.keep(vm.getProp(tools, 'describe'));

    const evaluated = vm.evalCode(`(async function () {${job.code}\n})()`, FILENAME, { type: 'global' });
    if (evaluated.error) throw this.stop(describe, evaluated.error);
    const promise = this.keep(evaluated.value);

    const jobs = this.runtime.executePendingJobs(-1);
    if (jobs.error) throw this.stop(describe, jobs.error);
    // An interrupt inside a promise job only rejects that job's promise: it must still fail the run.
    this.throwIfStopped();
    if (this.importAttempted) throw new Stop({ code: 'code_error', message: 'import() is not available in the code step' });

    // A script that caught the heap running full, or let a promise job fail on it, still hit the limit.
    if (this.sandbox.ranOutOfMemory()) throw this.overMemoryLimit();
    const state = vm.getPromiseState(promise);
    if (state.type === 'pending') {
      throw new Stop({ code: 'code_error', message: 'the script never finished: it awaits a promise that nothing settles (there are no timers or I/O)' });
    }
    if (state.type === 'rejected') throw this.stop(describe, state.error);
    const value = this.keep(state.value);

    // Serialised inside the sandbox, under its limits: a toJSON may loop or allocate too.
    const serialized = vm.callFunction(serialize, vm.undefined, value);
    if (serialized.error) throw this.stop(describe, serialized.error, 'the output is not JSON-serialisable: ');
    this.throwIfStopped();
    if (this.sandbox.ranOutOfMemory()) throw this.overMemoryLimit();
    return { ok: true, outputJson: vm.getString(this.keep(serialized.value)) };
  }

  /** Frees every handle, the context and the runtime; a failure there poisons the module. */
  dispose(): void {
    if (this.poisoned) return; // nothing more is run in a module that may be corrupt
    try {
      for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
      this.vm.dispose();
      this.runtime.dispose();
      this.releaseEpilogueMemory();
    } catch {
      // QuickJS asserts that nothing leaked when a runtime is freed; if that fires, the module is gone.
      this.poisoned = true;
    }
  }

  private keep<T extends QuickJSHandle>(handle: T): T {
    this.handles.push(handle);
    return handle;
  }

  private log(levelHandle: QuickJSHandle, textHandle: QuickJSHandle): void {
    if (this.logLines >= this.job.maxLogLines) {
      this.droppedLogLines++;
      return;
    }
    this.logLines++;
    const { vm } = this;
    const level = vm.typeof(levelHandle) === 'string' ? (vm.getString(levelHandle) as LogLevel) : 'info';
    const message = vm.typeof(textHandle) === 'string' ? vm.getString(textHandle) : '';
    this.hooks.log(LEVELS.has(level) ? level : 'info', truncateBytes(message, this.job.maxLogLineBytes));
  }

  private throwIfStopped(): void {
    if (this.stopReason === 'aborted') throw new Stop({ code: 'code_aborted', message: 'the script was stopped: the step was aborted' });
    if (this.stopReason === 'timeout') throw new Stop({ code: 'code_timeout', message: `the script ran longer than ${this.job.timeoutMs} ms` });
  }

  /**
   * The failure for an error the script ended with, described inside the sandbox (never by reading
   * its properties from here: a getter would run without limits) with a little more time and memory.
   */
  private stop(describe: QuickJSHandle, errorHandle: QuickJSHandle, context = ''): Stop {
    this.keep(errorHandle);
    this.throwIfStopped();
    // Read before the epilogue allocates: describing the error may grow the heap again.
    const heapWasFull = this.sandbox.ranOutOfMemory();
    this.deadline = Date.now() + EPILOGUE_MS;
    this.releaseEpilogueMemory();
    this.runtime.setMemoryLimit(this.job.memoryLimitBytes + EPILOGUE_MEMORY_BYTES);
    const described = describeError(this.vm, describe, errorHandle);
    if (heapWasFull || (described.name === 'InternalError' && described.message === 'out of memory')) return this.overMemoryLimit();
    const error = scriptError(described);
    return new Stop({ ...error, message: `${context}${error.message}` });
  }

  private overMemoryLimit(): Stop {
    this.poisoned = true; // QuickJS may leave objects behind after an OOM (and the WASM memory stays grown)
    return new Stop({ code: 'code_memory_limit', message: `the script used more than ${this.job.memoryLimitBytes} bytes of memory` });
  }
}

function unwrap(ctx: QuickJSContext, result: ReturnType<QuickJSContext['evalCode']>): QuickJSHandle {
  if (result.error) {
    const message = ctx.dump(result.error) as unknown;
    result.error.dispose();
    throw new Error(`sandbox bootstrap failed: ${JSON.stringify(message)}`);
  }
  return result.value;
}

function describeError(ctx: QuickJSContext, describe: QuickJSHandle, errorHandle: QuickJSHandle): Described {
  const result = ctx.callFunction(describe, ctx.undefined, errorHandle);
  if (result.error) {
    result.error.dispose();
    return { message: 'the script threw a value that cannot be described' };
  }
  try {
    return ctx.typeof(result.value) === 'string' ? (JSON.parse(ctx.getString(result.value)) as Described) : { message: 'unknown error' };
  } finally {
    result.value.dispose();
  }
}

function scriptError(described: Described): Failure {
  const line = described.line ?? lineFromStack(described.stack);
  const prefix = described.name ? `${described.name}: ` : '';
  return {
    code: 'code_error',
    message: `${prefix}${described.message}${line !== undefined ? ` (line ${line})` : ''}`,
    details: { name: described.name, line, stack: described.stack },
  };
}

/** The first frame of the script itself: `at f (code.js:3:12)`; the wrapper keeps line numbers as written. */
function lineFromStack(stack: string | undefined): number | undefined {
  const match = stack ? /code\.js:(\d+)/.exec(stack) : null;
  return match ? Number(match[1]) : undefined;
}

function truncateBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const cut = Buffer.from(text, 'utf8')
    .subarray(0, maxBytes - 3)
    .toString('utf8')
    .replace(/\uFFFD$/, '');
  return `${cut}…`;
}
