import { Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { observedPass, recordRepairs } from '../metrics/jobs.metrics.js';

export interface PeriodicSchedule {
  /** Shown in logs. */
  name: string;
  /** Time between passes; 0 runs no interval (only the pass at start, if asked). */
  intervalMs: number;
  /** One pass right after start-up (not awaited: start-up never waits on it). */
  runAtStart?: boolean;
}

/**
 * Background work repeated on an interval (key expiry, retention, the engine's reconciler, key
 * re-wrapping): passes never overlap, a failed pass is logged and the next one runs as usual,
 * and the timer neither keeps the process alive nor survives shutdown.
 */
export abstract class PeriodicJob implements OnApplicationBootstrap, OnModuleDestroy {
  protected readonly logger: Logger;
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  protected constructor(private readonly schedule: PeriodicSchedule) {
    this.logger = new Logger(schedule.name);
  }

  /** One pass of the work. */
  protected abstract pass(): Promise<unknown>;

  onApplicationBootstrap(): void {
    const run = () =>
      void this.runOnce().catch((error: unknown) => this.logger.error(`${this.schedule.name} failed: ${(error as Error)?.message ?? String(error)}`));
    if (this.schedule.runAtStart) setImmediate(run);
    if (this.schedule.intervalMs > 0) {
      this.timer = setInterval(run, this.schedule.intervalMs);
      this.timer.unref();
    }
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /** Runs a pass now; a pass already under way is joined rather than started twice. */
  runOnce(): Promise<unknown> {
    this.running ??= observedPass(this.schedule.name, () => this.pass()).finally(() => (this.running = undefined));
    return this.running;
  }

  /** Counts what a pass repaired in `reconciler_repairs_total` (see docs/operations.md#metrics). */
  protected repaired(repair: string, count: number): void {
    recordRepairs(this.schedule.name, repair, count);
  }
}
