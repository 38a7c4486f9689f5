import { describe, expect, it } from '@jest/globals';
import { PeriodicJob } from './periodic-job.js';

class CountingJob extends PeriodicJob {
  passes = 0;
  failNext = false;
  private release?: () => void;

  constructor(intervalMs = 0, runAtStart = false) {
    super({ name: 'CountingJob', intervalMs, runAtStart });
  }

  protected async pass(): Promise<void> {
    this.passes++;
    if (this.failNext) {
      this.failNext = false;
      throw new Error('boom');
    }
    await new Promise<void>((resolve) => (this.release = resolve));
  }

  finish(): void {
    this.release?.();
  }
}

describe('PeriodicJob', () => {
  it('joins a pass that is still running instead of starting a second one', async () => {
    const job = new CountingJob();
    const first = job.runOnce();
    const second = job.runOnce();
    expect(second).toBe(first);
    job.finish();
    await first;
    expect(job.passes).toBe(1);
    const third = job.runOnce();
    job.finish();
    await third;
    expect(job.passes).toBe(2);
  });

  it('runs on its interval, keeps going after a failed pass, and stops at shutdown', async () => {
    const job = new CountingJob(10, true);
    (job as unknown as { logger: { error: () => void } }).logger.error = () => undefined;
    job.failNext = true;
    job.onApplicationBootstrap();
    await new Promise((r) => setTimeout(r, 35));
    job.finish();
    await new Promise((r) => setTimeout(r, 25));
    job.onModuleDestroy();
    const after = job.passes;
    expect(after).toBeGreaterThanOrEqual(2);
    job.finish();
    await new Promise((r) => setTimeout(r, 40));
    expect(job.passes).toBeLessThanOrEqual(after + 1);
  });
});
