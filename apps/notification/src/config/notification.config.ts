import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsString, Max, Min } from 'class-validator';
import { IsRedisUrl, loadConfig, toBoolean } from '@platform/common';

/** The notification service's own settings (environment variables). */
export class NotificationConfig {
  /**
   * Deliver in a worker thread of the service, with its own event loop, database pool and NATS
   * connection (true), or in the service's own event loop (false, one core).
   */
  @Transform(toBoolean)
  @IsBoolean()
  NOTIFICATION_DELIVERY_THREAD: boolean = true;

  /** Deliveries in progress at once on each replica (pulled from the JetStream work queue). */
  @IsInt()
  @Min(1)
  @Max(1000)
  NOTIFICATION_CONCURRENCY: number = 64;

  /** Attempts of one notification before it is recorded as failed (transient failures only: a permanent one stops at once). */
  @IsInt()
  @Min(1)
  @Max(50)
  NOTIFICATION_MAX_ATTEMPTS: number = 6;

  /** The first retry's delay; each further retry doubles it (with jitter), up to NOTIFICATION_RETRY_MAX_MS. */
  @IsInt()
  @Min(10)
  @Max(600_000)
  NOTIFICATION_RETRY_BASE_MS: number = 2000;

  /** The longest wait between two attempts, `Retry-After` included. */
  @IsInt()
  @Min(100)
  @Max(86_400_000)
  NOTIFICATION_RETRY_MAX_MS: number = 600_000;

  /** How long one attempt (an HTTP call or an SMTP session) may take. */
  @IsInt()
  @Min(500)
  @Max(120_000)
  NOTIFICATION_SEND_TIMEOUT_MS: number = 10_000;

  /** Allow channels to reach private, loopback and link-local addresses (tests, on-premise SMTP relays). */
  @Transform(toBoolean)
  @IsBoolean()
  NOTIFICATION_ALLOW_PRIVATE_NETWORKS: boolean = false;

  /** Notifications one tenant environment may send per minute, unless its plan says otherwise. */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  NOTIFICATION_LIMIT_PER_MINUTE: number = 600;

  /** Notifications one tenant environment may send per UTC day, unless its plan says otherwise. */
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  NOTIFICATION_LIMIT_PER_DAY: number = 20_000;

  /** How long a tenant's plan limits are used before they are asked for again (plan changes are pushed at once; this is the fallback). */
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  NOTIFICATION_PLAN_REFRESH_MS: number = 60_000;

  /** Slack's Web API, for channels with a bot token (a stand-in in tests). */
  @IsString()
  NOTIFICATION_SLACK_API_URL: string = 'https://slack.com/api';

  /** Redis for the sending-limit counters (shared by every replica). */
  @IsRedisUrl()
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  /** A queued or retrying notification with no progress for this long is queued again by the reconciler. */
  @IsInt()
  @Min(1000)
  @Max(3_600_000)
  NOTIFICATION_RECONCILE_AFTER_MS: number = 30_000;

  /**
   * How often the reconciler queues a notification again without progress (no attempt recorded)
   * before it fails it: a delivery that never completes ends in a recorded failure, not a loop.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  NOTIFICATION_MAX_REQUEUES: number = 10;
}

export const NOTIFICATION_CONFIG = Symbol('NOTIFICATION_CONFIG');

export function loadNotificationConfig(env: Record<string, string | undefined> = process.env): NotificationConfig {
  return loadConfig(NotificationConfig, env);
}

/**
 * NOTIFICATION_DELIVERY_THREAD as the modules are declared, before the settings are loaded for
 * the providers: settings that do not load mean the default here, and are refused with a clear
 * message when the providers load them.
 */
export function deliveryInThread(env: Record<string, string | undefined> = process.env): boolean {
  try {
    return loadNotificationConfig(env).NOTIFICATION_DELIVERY_THREAD;
  } catch {
    return true;
  }
}
