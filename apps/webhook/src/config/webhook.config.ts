import { IsInt, Max, Min } from 'class-validator';
import { loadConfig } from '@platform/common';

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
}

export const WEBHOOK_CONFIG = Symbol('WEBHOOK_CONFIG');

export function loadWebhookConfig(env: Record<string, string | undefined> = process.env): WebhookConfig {
  return loadConfig(WebhookConfig, env);
}
