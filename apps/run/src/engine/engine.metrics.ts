import { SeriesCache, counter, histogram, metricsEnabled } from '@platform/common';
import type { ExecutionRow, NewStepRecord } from './execution.records.js';

/** The engine's series: runs started and finished, how long they took, and the step attempts by step type. */

const started = counter({
  name: 'run_executions_started_total',
  help: 'Executions that started running (announced run.execution.started) on this replica',
});

const finished = histogram({
  name: 'run_execution_duration_seconds',
  help: 'Executions finished, by final status (succeeded, failed, cancelled, timed_out), from their creation (the accepted start) to the end; its _count counts the runs finished',
  labelNames: ['status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 3600],
});

const steps = histogram({
  name: 'run_step_duration_seconds',
  help: 'Step attempts the interpreter recorded, by step type (http, transform, condition, …) and status (succeeded, failed, waiting); its _count counts the attempts',
  labelNames: ['type', 'status'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 1, 5, 30, 120],
});

const finishedSeries = new SeriesCache(([status]) => finished.labels(status));
// Step types come from the registry and the control steps: bounded, and folded into `other` past 100 all the same.
const stepSeries = new SeriesCache(([type, status]) => steps.labels(type, status), 100);

export function executionStarted(): void {
  if (metricsEnabled()) started.inc();
}

export function executionFinished(execution: Pick<ExecutionRow, 'status'> & Partial<Pick<ExecutionRow, 'created_at'>>): void {
  if (!metricsEnabled()) return;
  const since = execution.created_at instanceof Date ? execution.created_at.getTime() : Date.now();
  finishedSeries.get(execution.status).observe(Math.max(0, Date.now() - since) / 1000);
}

export function stepRecorded(record: Pick<NewStepRecord, 'type' | 'status' | 'started_at' | 'finished_at'>): void {
  if (!metricsEnabled()) return;
  const end = record.finished_at ?? new Date();
  stepSeries.get(record.type, record.status).observe(Math.max(0, end.getTime() - record.started_at.getTime()) / 1000);
}
