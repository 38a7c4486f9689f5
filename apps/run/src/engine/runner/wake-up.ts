import type { ExecutionRef } from '../execution.records.js';

/**
 * An execution a run leaves to wake once its own state is committed: a child it started, the
 * parent a finished child resolved, or itself after a short wait (`at`). `token` tells apart
 * wake-ups of one execution on the queue, whose duplicate window drops only true repeats.
 */
export interface WakeUp {
  execution: ExecutionRef;
  token: string;
  at?: Date;
}
