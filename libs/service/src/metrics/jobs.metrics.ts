import { SeriesCache, counter, histogram, metricsEnabled } from '@platform/common';

const passes = histogram({
  name: 'background_job_pass_duration_seconds',
  help: 'Passes of periodic jobs (reconcilers, relays, sweeps: PeriodicJob), by job name and outcome (ok, failed); its _count counts the passes',
  labelNames: ['job', 'outcome'] as const,
  buckets: [0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120],
});

const repairs = counter({
  name: 'reconciler_repairs_total',
  help: 'What reconcilers repaired, by job and repair (a re-sent lost wake-up, a lease taken over, a run timed out, a delivery re-queued or given up, …)',
  labelNames: ['job', 'repair'] as const,
});

const passSeries = new SeriesCache(([job, outcome]) => passes.labels(job, outcome));
const repairSeries = new SeriesCache(([job, repair]) => repairs.labels(job, repair));

/** Runs one pass of `job`, observed. */
export async function observedPass<T>(job: string, pass: () => Promise<T>): Promise<T> {
  if (!metricsEnabled()) return pass();
  const started = performance.now();
  let outcome = 'failed';
  try {
    const result = await pass();
    outcome = 'ok';
    return result;
  } finally {
    passSeries.get(job, outcome).observe((performance.now() - started) / 1000);
  }
}

/** Counts `count` repairs of one kind made by `job` (nothing for 0). */
export function recordRepairs(job: string, repair: string, count: number): void {
  if (count > 0 && metricsEnabled()) repairSeries.get(job, repair).inc(count);
}
