import { IsInt, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';

/** The task service's own settings (environment variables). */
export class TaskConfig {
  /** Time between passes of the deadline reconciler on each replica. */
  @IsInt()
  @Min(50)
  @Max(60_000)
  TASK_EXPIRY_INTERVAL_MS: number = 1000;

  /** A decided task whose outcome has not reached the run service's queue after this long is published again by the reconciler. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  TASK_OUTBOX_GRACE_MS: number = 2000;

  /**
   * A decided task whose outcome still cannot be published this long after the decision (NATS
   * down all along) is given up by the reconciler: recorded failed, no longer tried. The waiting
   * execution has timed out by then (a run's timeout is at most 24 h unless RUN_DEFAULT_TIMEOUT_SECONDS is raised).
   */
  @IsInt()
  @Min(60_000)
  @Max(30 * 86_400_000)
  TASK_OUTBOX_GIVE_UP_MS: number = 86_400_000;

  /**
   * A pending task whose execution has not been checked for this long is checked (is it still
   * waiting?): cancels the tasks of executions that ended while this service missed the event.
   */
  @IsInt()
  @Min(500)
  @Max(86_400_000)
  TASK_EXECUTION_CHECK_MS: number = 60_000;

  /** Default lifetime of a signed task link (POST /tasks/{id}/links may choose another, up to 30 days). */
  @IsInt()
  @Min(60)
  @Max(2_592_000)
  TASK_LINK_TTL_SECONDS: number = 604_800;

  /**
   * The largest `data` (serialised as JSON) a decision may carry. The outcome travels to the run
   * service as one NATS message (1 MiB at most by default) and becomes the step's output: a larger
   * decision is refused with 413 when it is made, never left in the outbox to be retried forever.
   */
  @IsInt()
  @Min(1024)
  @Max(900 * 1024)
  TASK_DATA_LIMIT_BYTES: number = 512 * 1024;
}

export const TASK_CONFIG = Symbol('TASK_CONFIG');

export function loadTaskConfig(env: Record<string, string | undefined> = process.env): TaskConfig {
  return loadConfig(TaskConfig, env);
}
