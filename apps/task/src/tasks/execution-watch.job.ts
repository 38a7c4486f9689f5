import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { Bus, BusError, RunSubjects, isFinished, messageContext } from '@platform/messaging';
import { PeriodicJob } from '@platform/service';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import type { TaskRow } from './task.record.js';
import { TasksService } from './tasks.service.js';
import { tasksRepository } from './tasks.repository.js';

const BATCH = 100;

/**
 * The events that cancel an ended execution's tasks travel on core NATS: one sent while no task
 * replica ran is missed. This pass (over tasks of executions; agent approvals have none) asks the run service about pending tasks not checked for
 * TASK_EXECUTION_CHECK_MS and cancels those whose execution has ended or no longer exists; a run
 * service that does not answer leaves them for the next check.
 */
@Injectable()
export class ExecutionWatchJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly bus: Bus,
    private readonly tasks: TasksService,
    @Inject(TASK_CONFIG) private readonly config: TaskConfig,
  ) {
    super({ name: 'ExecutionWatchJob', intervalMs: Math.min(config.TASK_EXECUTION_CHECK_MS, 30_000), runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const due = await this.system.run(
      'task execution watch: pending tasks to check',
      (m) => tasksRepository.claimUnchecked(m, this.config.TASK_EXECUTION_CHECK_MS, BATCH),
      'debug',
    );
    for (const task of due) {
      if (await this.ended(task))
        await this.tasks.cancelForExecution({ tenantId: task.tenant_id, environmentId: task.environment_id, scopeId: null }, task.execution_id!);
    }
  }

  private async ended(task: TaskRow): Promise<boolean> {
    const ctx = messageContext({ tenantId: task.tenant_id, environmentId: task.environment_id, scopeId: null });
    try {
      const execution = await this.bus.request(RunSubjects.executionsGet, { executionId: task.execution_id! }, ctx);
      return isFinished(execution.status);
    } catch (error) {
      return error instanceof BusError && error.remote?.status === 404;
    }
  }
}
