import { Injectable, Logger } from '@nestjs/common';
import {
  Bus,
  isFinished,
  messageContext,
  RunSubjects,
  type ExecutionStatus,
  type ExecutionStatusEvent,
  type FinishedExecutionStatus,
} from '@platform/messaging';
import { executionFinished, executionStarted } from './engine.metrics.js';
import { runContext, type ExecutionRow } from './execution.records.js';

type StatusSubject =
  | typeof RunSubjects.executionStarted
  | typeof RunSubjects.executionCompleted
  | typeof RunSubjects.executionFailed
  | typeof RunSubjects.executionCancelled
  | typeof RunSubjects.executionTimedOut;

const BY_STATUS: Record<FinishedExecutionStatus, StatusSubject> = {
  succeeded: RunSubjects.executionCompleted,
  failed: RunSubjects.executionFailed,
  cancelled: RunSubjects.executionCancelled,
  timed_out: RunSubjects.executionTimedOut,
};

type Announced = Pick<ExecutionRow, 'id' | 'workflow_id' | 'scope_id' | 'tenant_id' | 'environment_id' | 'error' | 'request_id'>;

/**
 * `run.execution.started|completed|failed|cancelled|timed_out`, for triggers, webhooks, portal and
 * notifications; in the run's context, whoever announces it (a worker, a cancel, the reconciler).
 * Every run passes here once when it starts and once when it ends, so this is also where its
 * start, end and failure are logged, each once, with its ids.
 */
@Injectable()
export class ExecutionEvents {
  private readonly logger = new Logger('Executions');

  constructor(private readonly bus: Bus) {}

  emit(subject: StatusSubject, execution: Announced, status: ExecutionStatus): void {
    if (subject === RunSubjects.executionStarted) executionStarted();
    this.log(execution, status);
    const event: ExecutionStatusEvent = {
      executionId: execution.id,
      workflowId: execution.workflow_id,
      status,
      customerId: execution.scope_id,
      at: new Date().toISOString(),
      error: execution.error,
    };
    this.bus.emit(
      subject,
      event,
      messageContext({ tenantId: execution.tenant_id, environmentId: execution.environment_id, scopeId: execution.scope_id }, runContext(execution)),
    );
  }

  finished(execution: Announced & Pick<ExecutionRow, 'status'> & Partial<Pick<ExecutionRow, 'created_at'>>): void {
    if (!isFinished(execution.status)) return;
    executionFinished(execution);
    this.emit(BY_STATUS[execution.status], execution, execution.status);
  }

  private log(execution: Announced, status: ExecutionStatus): void {
    const line = {
      msg: status === 'running' ? 'run started' : `run ${status}`,
      execution_id: execution.id,
      workflow_id: execution.workflow_id,
      tenant_id: execution.tenant_id,
      environment_id: execution.environment_id,
      request_id: execution.request_id,
      status,
    };
    if (status === 'failed' || status === 'timed_out') this.logger.warn({ ...line, error: execution.error });
    else this.logger.log(line);
  }
}
