import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { SERVICE_TIME_LIMITS, ServiceConfig, toBoolean } from '@platform/common';
import { DEFAULT_RUN_INPUT_LIMIT_BYTES } from '@platform/messaging';

export const RUN_CONFIG = Symbol('RUN_CONFIG');

/** The run service's own settings, on top of every service's (README, Settings). */
export class RunConfig extends ServiceConfig {
  /** Executions one process runs at once. */
  @IsInt()
  @Min(1)
  @Max(1024)
  RUN_WORKER_CONCURRENCY: number = 64;

  /**
   * Runs a process starts itself, on top of those it takes from the queue: a start with a free
   * slot skips the queue and a second claim. 0 sends every start through the queue.
   */
  @IsInt()
  @Min(0)
  @Max(1024)
  RUN_INLINE_CONCURRENCY: number = 64;

  /** How long a worker owns an execution before another may take it over (renewed while it runs). */
  @IsInt()
  @Min(1000)
  RUN_LEASE_MS: number = 30_000;

  /** How often lost wake-ups, expired leases and due delays are looked for. */
  @IsInt()
  @Min(50)
  RUN_RECONCILE_INTERVAL_MS: number = 1000;

  /** Largest run input accepted (413 above). */
  @IsInt()
  @Min(1024)
  RUN_INPUT_LIMIT_BYTES: number = DEFAULT_RUN_INPUT_LIMIT_BYTES;

  /**
   * The longest `Prefer: wait` honoured on `GET /run/executions/{id}`: a longer one is cut to
   * this. The gateway reads it too (its wait on that route), so give both the same value.
   */
  @IsInt()
  @Min(1000)
  @Max(600_000)
  EXECUTION_WAIT_MAX_MS: number = SERVICE_TIME_LIMITS.EXECUTION_WAIT_MAX_MS;

  /**
   * How many requests one replica holds with `Prefer: wait` at once, in all and per tenant; one
   * more is answered at once, its preference not applied (RFC 7240 lets a server ignore one). A
   * held request keeps a gateway connection to this service busy: without a bound, one tenant's
   * held reads could take every connection of the gateway's pool (512) from everyone else.
   */
  @IsInt()
  @Min(0)
  @Max(10_000)
  EXECUTION_WAIT_MAX_HELD = 256;

  @IsInt()
  @Min(0)
  @Max(10_000)
  EXECUTION_WAIT_MAX_HELD_PER_TENANT = 32;

  /** Default execution timeout when a workflow sets none. */
  @IsInt()
  @Min(1)
  RUN_DEFAULT_TIMEOUT_SECONDS: number = 3600;

  /** Execution data older than this is pruned (a workflow's settings.retention_days may shorten it). */
  @IsInt()
  @Min(1)
  RUN_RETENTION_DAYS: number = 30;

  @IsInt()
  @Min(1000)
  RUN_RETENTION_INTERVAL_MS: number = 3_600_000;

  /** Let http.request reach private, loopback and link-local addresses (on-premise, tests). Off by default: SSRF protection. */
  @Transform(toBoolean)
  @IsBoolean()
  HTTP_ALLOW_PRIVATE_NETWORKS: boolean = false;

  @IsInt()
  @Min(1024)
  HTTP_RESPONSE_LIMIT_BYTES: number = 5 * 1024 * 1024;

  @IsInt()
  @Min(100)
  HTTP_DEFAULT_TIMEOUT_MS: number = 30_000;

  @IsInt()
  @Min(10)
  CODE_TIMEOUT_MS: number = 1000;

  /** Caps each sandbox worker's WebAssembly memory (32-bit, at most 2 GiB with QuickJS's own 16 MiB). */
  @IsInt()
  @Min(1024 * 1024)
  @Max(1024 * 1024 * 1024)
  CODE_MEMORY_LIMIT_BYTES: number = 32 * 1024 * 1024;
}
