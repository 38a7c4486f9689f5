import { IsInt, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';

/** The trigger service's own settings (environment variables). */
export class TriggerConfig {
  /** Time between scheduler passes on each replica. */
  @IsInt()
  @Min(50)
  @Max(60_000)
  TRIGGER_SCHEDULER_INTERVAL_MS: number = 250;

  /** A tick later than this is a misfire (every replica was down) and follows the trigger's `misfire`. */
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  TRIGGER_MISFIRE_GRACE_MS: number = 30_000;

  /** A claimed tick whose run has not started after this long is started by the reconciler. */
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  TRIGGER_PENDING_RETRY_MS: number = 3000;

  /**
   * Failed starts of a claimed firing's run (the run service failed on it, or the start could not
   * be sent) after which the firing is recorded as failed, with the last error. Starts the run
   * service did not answer (down, slow) do not count: see TRIGGER_PENDING_GIVE_UP_MS.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  TRIGGER_START_MAX_ATTEMPTS: number = 10;

  /** A claimed firing whose run has not started after this long is recorded as failed: the reconciler stops trying it. */
  @IsInt()
  @Min(1000)
  @Max(30 * 86_400_000)
  TRIGGER_PENDING_GIVE_UP_MS: number = 86_400_000;
}

export const TRIGGER_CONFIG = Symbol('TRIGGER_CONFIG');

export function loadTriggerConfig(env: Record<string, string | undefined> = process.env): TriggerConfig {
  return loadConfig(TriggerConfig, env);
}
