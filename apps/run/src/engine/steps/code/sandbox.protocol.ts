import type { LogLevel } from '../step-executor.js';

/** One script run, as the pool hands it to a sandbox worker. */
export interface SandboxJob {
  code: string;
  /** The JSON text of the value the script sees as `input`. */
  inputJson: string;
  /** CPU budget of the script, counted from when the worker starts it (queueing excluded). */
  timeoutMs: number;
  memoryLimitBytes: number;
  maxStackBytes: number;
  maxLogLines: number;
  maxLogLineBytes: number;
}

export type SandboxFailureCode = 'code_error' | 'code_timeout' | 'code_memory_limit' | 'code_aborted' | 'code_internal_error';

export type SandboxResult =
  | { ok: true; outputJson: string; droppedLogLines: number; poisoned?: boolean }
  | {
      ok: false;
      code: SandboxFailureCode;
      message: string;
      details?: { name?: string; line?: number; stack?: string };
      droppedLogLines: number;
      /** The QuickJS module may be corrupt (a WASM abort, a native stack overflow): retire the worker. */
      poisoned?: boolean;
    };

export type WorkerRequest = { type: 'run'; id: number; job: SandboxJob; cancel: SharedArrayBuffer };

/** What a sandbox worker is started with (its workerData). */
export interface WorkerSetup {
  /** The memory limit of every script it runs: its WASM memory is capped to it (plus the epilogue's reserve). */
  memoryLimitBytes: number;
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'log'; id: number; level: LogLevel; message: string }
  /** `grownBytes`: how far the worker's WASM memory has grown since it started (it never shrinks). */
  | {
      type: 'done';
      id: number;
      result: SandboxResult;
      grownBytes: number;
      /** p99 of the worker's event-loop delay since its previous answer, in seconds (a script blocks the loop while it runs). */
      loopDelaySeconds?: number;
    };
