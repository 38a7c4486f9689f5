import type { ExecutionError } from '../execution.records.js';

/**
 * Control flow of the interpreter: these unwind the step tree, they are not failures of the
 * platform. They are Errors only so that what is thrown is always an Error; each is caught by
 * its own class, never as a generic Error.
 */
abstract class InterpreterSignal extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class WaitSignal extends InterpreterSignal {
  /** null: woken by an outside event (approval, child execution). */
  constructor(readonly wakeAt: Date | null) {
    super(wakeAt ? `wait until ${wakeAt.toISOString()}` : 'wait for an outside event');
  }
}

export class StopSignal extends InterpreterSignal {
  constructor(readonly output: unknown) {
    super('stop');
  }
}

/** The execution fails with this error (a step failed with on_error 'fail', or a fail step). */
export class FailSignal extends InterpreterSignal {
  constructor(readonly error: ExecutionError) {
    super(error.message);
  }
}

/** A step failed for good (retries exhausted or not retryable); its list's on_error decides. */
export class StepFailure extends InterpreterSignal {
  /** What a control step had evaluated of its input when it failed, for its failed record. */
  input?: unknown;

  constructor(readonly error: ExecutionError & { retryable: boolean }) {
    super(error.message);
  }
}

/** The worker no longer owns the execution (cancelled, timed out, or taken over): stop at once. */
export class AbortRun extends InterpreterSignal {
  constructor(readonly reason: 'cancelled' | 'timed_out' | 'lease_lost') {
    super(reason);
  }
}

export function combineWaits(waits: WaitSignal[]): WaitSignal {
  const times = waits.map((w) => w.wakeAt).filter((t): t is Date => t !== null);
  return new WaitSignal(times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null);
}
