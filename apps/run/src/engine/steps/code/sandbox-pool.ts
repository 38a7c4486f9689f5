import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { reportThreadLag } from '@platform/common';
import type { LogLevel } from '../step-executor.js';
import type { SandboxJob, SandboxResult, WorkerMessage, WorkerRequest, WorkerSetup } from './sandbox.protocol.js';

export interface SandboxPoolOptions {
  /** Most scripts running at once (one per worker thread); more wait for a free worker. */
  size?: number;
  /** An idle worker thread is stopped after this long. */
  idleMs?: number;
}

export interface SandboxRun {
  signal: AbortSignal;
  onLog(level: LogLevel, message: string): void;
}

/**
 * QuickJS checks its stack limit against its own (WASM) stack, but its C frames also use the
 * thread's native stack, several times more for some paths (the parser recursing on `((((…`).
 * With the default 4 MB thread stack a deep parse overflows V8's stack first and leaves the WASM
 * module corrupt; a 64 MB stack with a 1 MiB QuickJS limit keeps QuickJS's check the one that trips.
 */
const THREAD_STACK_MB = 64;
export const SANDBOX_STACK_BYTES = 1024 * 1024;
/** How long past its budget a script may go unanswered before its worker is killed. */
const WATCHDOG_GRACE_MS = 500;
/** How long an aborted script may take to notice the cancel flag before its worker is killed. */
const ABORT_GRACE_MS = 250;
const WORKER_URL = new URL('./sandbox.worker.js', import.meta.url);
const MiB = 1024 * 1024;
/**
 * WASM memory never shrinks: a worker whose memory grew past this is replaced after the run, so
 * that what one script touched is given back instead of staying resident. Emscripten grows the
 * heap by a fifth at a time, so a worker grows some 3 MiB with its first script of any kind.
 */
const RECYCLE_AFTER_GROWTH_BYTES = 8 * MiB;

/**
 * The sandbox threads' loop delay for the scrape (nodejs_thread_eventloop_lag_seconds{thread="code-sandbox"}):
 * the worst any worker reported since the previous scrape; 0 when none ran a script since, and no
 * series before the first script.
 */
let worstLoopDelay: number | undefined;
let reportedLoopDelay = false;
reportThreadLag('code-sandbox', () => {
  if (!reportedLoopDelay) return undefined;
  const seconds = worstLoopDelay ?? 0;
  worstLoopDelay = undefined;
  return seconds;
});

function recordLoopDelay(seconds: number | undefined): void {
  if (seconds === undefined) return;
  reportedLoopDelay = true;
  worstLoopDelay = Math.max(worstLoopDelay ?? 0, seconds);
}

/** What happens to a retired worker's slot: a script waiting gets it, or nobody (the caller takes it), or a fresh worker. */
type SlotAfter = 'hand-over' | 'keep' | 'replace';

type WorkerEvent = WorkerMessage | { type: 'crash'; error: Error };

class SandboxWorker {
  readonly thread: Worker;
  readonly ready: Promise<void>;
  /** The handler of the job in progress, if any. */
  current?: (event: WorkerEvent) => void;
  idleTimer?: NodeJS.Timeout;
  retired = false;

  constructor(
    /** The memory limit of the scripts it runs: its WASM memory is capped to it at start. */
    readonly memoryLimitBytes: number,
    onExit: (worker: SandboxWorker) => void,
  ) {
    // stdout/stderr are drained, not inherited: the only thing written there is emscripten's
    // "Aborted(…)" when a hostile script leaves QuickJS asserting, which retires the worker anyway.
    this.thread = new Worker(WORKER_URL, {
      workerData: { memoryLimitBytes } satisfies WorkerSetup,
      // The JS heap of the thread holds the QuickJS glue and copies of one script's input and
      // output (each within the memory limit, up to twice that as UTF-16): bounded as a backstop.
      resourceLimits: { stackSizeMb: THREAD_STACK_MB, maxOldGenerationSizeMb: 64 + Math.ceil((4 * memoryLimitBytes) / MiB) },
      env: {},
      stdin: false,
      stdout: true,
      stderr: true,
    });
    this.thread.stdout.resume();
    this.thread.stderr.resume();
    this.ready = new Promise<void>((resolve, reject) => {
      this.current = (event) => {
        if (event.type === 'ready') resolve();
        else if (event.type === 'crash') reject(event.error);
      };
    });
    this.thread.on('message', (message: WorkerMessage) => this.current?.(message));
    // A listener is required: an 'error' nobody listens to would be thrown in the service.
    this.thread.on('error', (error: Error) => this.current?.({ type: 'crash', error }));
    this.thread.on('exit', (code: number) => {
      this.current?.({ type: 'crash', error: new Error(`the sandbox worker exited with code ${code}`) });
      onExit(this);
    });
  }
}

interface Waiter {
  memoryLimitBytes: number;
  resolve(worker: SandboxWorker): void;
  reject(error: Error): void;
}

/**
 * Worker threads that run code-step scripts, one at a time each. The event loop stays free while a
 * script runs, an aborted step sets a shared cancel flag that the QuickJS interrupt handler reads,
 * and a worker that does not answer in time, crashes or may be corrupt is terminated and replaced.
 */
export class SandboxPool {
  private readonly size: number;
  private readonly idleMs: number;
  private readonly workers = new Set<SandboxWorker>();
  private readonly idle: SandboxWorker[] = [];
  private readonly waiters: Waiter[] = [];
  private jobs = 0;
  private closed = false;

  constructor(options: SandboxPoolOptions = {}) {
    this.size = Math.max(1, options.size ?? Math.min(4, availableParallelism()));
    this.idleMs = options.idleMs ?? 60_000;
  }

  async run(job: SandboxJob, run: SandboxRun): Promise<SandboxResult> {
    let worker: SandboxWorker;
    try {
      worker = await this.acquire(run.signal, job.memoryLimitBytes);
      // A worker's memory is capped for one limit: another limit takes its slot with a new worker.
      if (worker.memoryLimitBytes !== job.memoryLimitBytes) {
        void this.retire(worker, 'keep');
        worker = await this.spawn(job.memoryLimitBytes);
      }
    } catch (error) {
      if (run.signal.aborted) return aborted();
      return { ok: false, code: 'code_internal_error', message: `the sandbox could not start: ${(error as Error).message}`, droppedLogLines: 0 };
    }
    return this.dispatch(worker, job, run);
  }

  /** Stops every worker; scripts still running fail with `code_internal_error`. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new Error('the sandbox pool is closed'));
    await Promise.all([...this.workers].map((worker) => this.retire(worker)));
  }

  private dispatch(worker: SandboxWorker, job: SandboxJob, run: SandboxRun): Promise<SandboxResult> {
    return new Promise<SandboxResult>((resolve) => {
      const id = ++this.jobs;
      const cancel = new SharedArrayBuffer(4);
      let abortTimer: NodeJS.Timeout | undefined;
      let done = false;
      const finish = (result: SandboxResult, healthy: boolean, grownBytes = 0) => {
        if (done) return;
        done = true;
        clearTimeout(watchdog);
        clearTimeout(abortTimer);
        run.signal.removeEventListener('abort', onAbort);
        worker.current = undefined;
        if (healthy && !result.poisoned && grownBytes <= RECYCLE_AFTER_GROWTH_BYTES) this.release(worker);
        // started now, the replacement is ready when the next script comes
        else void this.retire(worker, 'replace');
        resolve(result);
      };
      worker.current = (event) => {
        if (event.type === 'crash') finish({ ok: false, code: 'code_internal_error', message: event.error.message, droppedLogLines: 0 }, false);
        else if (event.type === 'log' && event.id === id) run.onLog(event.level, event.message);
        else if (event.type === 'done' && event.id === id) {
          recordLoopDelay(event.loopDelaySeconds);
          finish(event.result, true, event.grownBytes);
        }
      };
      // The interrupt handler stops a script at its deadline; this is for one that never reaches it.
      const watchdog = setTimeout(
        () => finish({ ok: false, code: 'code_timeout', message: `the script ran longer than ${job.timeoutMs} ms`, droppedLogLines: 0 }, false),
        job.timeoutMs + WATCHDOG_GRACE_MS,
      );
      const onAbort = () => {
        Atomics.store(new Int32Array(cancel), 0, 1);
        abortTimer = setTimeout(() => finish(aborted(), false), ABORT_GRACE_MS);
      };
      if (run.signal.aborted) onAbort();
      else run.signal.addEventListener('abort', onAbort, { once: true });
      worker.thread.postMessage({ type: 'run', id, job, cancel } satisfies WorkerRequest);
    });
  }

  private acquire(signal: AbortSignal, memoryLimitBytes: number): Promise<SandboxWorker> {
    if (this.closed) return Promise.reject(new Error('the sandbox pool is closed'));
    if (signal.aborted) return Promise.reject(new Error('aborted'));
    const idle = this.idle.pop();
    if (idle) {
      clearTimeout(idle.idleTimer);
      idle.thread.ref();
      return Promise.resolve(idle);
    }
    if (this.workers.size < this.size) return this.spawn(memoryLimitBytes);
    return new Promise<SandboxWorker>((resolve, reject) => {
      let settled = false;
      const onAbort = () => {
        settled = true;
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new Error('aborted'));
      };
      const waiter: Waiter = {
        memoryLimitBytes,
        resolve: (worker) => {
          signal.removeEventListener('abort', onAbort);
          if (settled) this.release(worker);
          else resolve(worker);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private async spawn(memoryLimitBytes: number): Promise<SandboxWorker> {
    const worker = new SandboxWorker(memoryLimitBytes, (exited) => void this.retire(exited));
    this.workers.add(worker);
    try {
      await worker.ready;
      worker.current = undefined;
      return worker;
    } catch (error) {
      await this.retire(worker);
      throw error;
    }
  }

  private release(worker: SandboxWorker): void {
    if (this.closed || worker.retired) {
      void this.retire(worker);
      return;
    }
    const waiter = this.waiters.shift();
    if (waiter) {
      waiter.resolve(worker);
      return;
    }
    // Idle workers do not keep the process alive, and go away after a while.
    worker.thread.unref();
    worker.idleTimer = setTimeout(() => void this.retire(worker), this.idleMs);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  /** Stops a worker; its slot goes to the next script waiting, else as `slot` says. */
  private async retire(worker: SandboxWorker, slot: SlotAfter = 'hand-over'): Promise<void> {
    if (worker.retired) return;
    worker.retired = true;
    clearTimeout(worker.idleTimer);
    this.workers.delete(worker);
    const index = this.idle.indexOf(worker);
    if (index >= 0) this.idle.splice(index, 1);
    // A slot is free: start a worker for the next script waiting, if any.
    const waiter = this.closed || slot === 'keep' ? undefined : this.waiters.shift();
    if (waiter)
      this.spawn(waiter.memoryLimitBytes).then(
        (spawned) => waiter.resolve(spawned),
        (error: Error) => waiter.reject(error),
      );
    else if (slot === 'replace' && !this.closed)
      this.spawn(worker.memoryLimitBytes).then(
        (spawned) => this.release(spawned),
        () => undefined, // the next script starts one itself, and reports its failure
      );
    await worker.thread.terminate().catch(() => undefined);
  }
}

function aborted(): SandboxResult {
  return { ok: false, code: 'code_aborted', message: 'the script was stopped: the step was aborted', droppedLogLines: 0 };
}
