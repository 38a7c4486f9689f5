import type { ExecutionError } from '../execution.records.js';

/** Control flow of the interpreter: these unwind the step tree, they are not failures of the platform. */
export class WaitSignal {
  /** null: woken by an outside event (approval, child execution). */
  constructor(readonly wakeAt: Date | null) {}
}

export class StopSignal {
  constructor(readonly output: unknown) {}
}

/** The execution fails with this error (a step failed with on_error 'fail', or a fail step). */
export class FailSignal {
  constructor(readonly error: ExecutionError) {}
}

/** A step failed for good (retries exhausted or not retryable); its list's on_error decides. */
export class StepFailure {
  constructor(readonly error: ExecutionError & { retryable: boolean }) {}
}

/** The worker no longer owns the execution (cancelled, timed out, or taken over): stop at once. */
export class AbortRun {
  constructor(readonly reason: 'cancelled' | 'timed_out' | 'lease_lost') {}
}

export function combineWaits(waits: WaitSignal[]): WaitSignal {
  const times = waits.map((w) => w.wakeAt).filter((t): t is Date => t !== null);
  return new WaitSignal(times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null);
}
