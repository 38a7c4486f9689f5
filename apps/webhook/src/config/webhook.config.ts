import { IsInt, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';
import { DEFAULT_RUN_INPUT_LIMIT_BYTES } from '@platform/messaging';

/** The webhook service's own settings (environment variables). */
export class WebhookConfig {
  /**
   * Runs of accepted deliveries being started at once on each replica. The rest wait in the
   * replica's queue (and in the database): a burst is accepted at intake speed and its runs are
   * started behind it.
   */
  @IsInt()
  @Min(1)
  @Max(10_000)
  WEBHOOK_START_CONCURRENCY: number = 64;

  /** The same while deliveries arrive at WEBHOOK_BURST_RATE or faster: answering senders comes first. */
  @IsInt()
  @Min(1)
  @Max(10_000)
  WEBHOOK_BURST_START_CONCURRENCY: number = 1;

  /** Deliveries per second, on one replica, from which arrivals count as a burst. */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  WEBHOOK_BURST_RATE: number = 200;

  /** An accepted delivery whose run has not started after this long is started by the reconciler (same run id: never twice). */
  @IsInt()
  @Min(500)
  @Max(3_600_000)
  WEBHOOK_START_RETRY_MS: number = 3000;

  /**
   * Failed attempts at starting a delivery's run (the run service failed on it, or the start could
   * not be sent) after which the delivery is recorded as failed, with the last error as its reason.
   * Attempts the run service did not answer (down, slow) do not count: see WEBHOOK_START_GIVE_UP_MS.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  WEBHOOK_START_MAX_ATTEMPTS: number = 10;

  /**
   * An accepted delivery whose run has not started after this long (the run service was
   * unreachable all along) is recorded as failed: the reconciler stops trying it.
   */
  @IsInt()
  @Min(1000)
  @Max(30 * 86_400_000)
  WEBHOOK_START_GIVE_UP_MS: number = 86_400_000;

  /**
   * The run service's limit on a run's input (the same setting; give both services one value). A
   * delivery whose run input would be larger is refused at intake (413): accepted, its run could
   * never start.
   */
  @IsInt()
  @Min(1024)
  RUN_INPUT_LIMIT_BYTES: number = DEFAULT_RUN_INPUT_LIMIT_BYTES;
}

export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');

export function loadWebhookConfig(env: Record<string, string | undefined> = process.env): WebhookConfig {
  return loadConfig(WebhookConfig, env);
}
