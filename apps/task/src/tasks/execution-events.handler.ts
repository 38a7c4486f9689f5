import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ExecutionStatusEvent, RunSubjects, TenantPayload, type TenantMessage } from '@platform/messaging';
import { TasksService } from './tasks.service.js';

/**
 * An execution cancelled, timed out or failed takes its open tasks with it, at once. One that
 * succeeded with a task still open (a `stop` in another parallel branch) is rare, and every
 * approval's execution succeeds: those are left to ExecutionWatchJob rather than costing a
 * database round trip per execution.
 */
@Controller()
export class ExecutionEventsHandler {
  constructor(private readonly tasks: TasksService) {}

  @EventPattern(RunSubjects.executionCancelled)
  cancelled(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<number> {
    return this.tasks.cancelForExecution(tenant, body.executionId);
  }

  @EventPattern(RunSubjects.executionTimedOut)
  timedOut(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<number> {
    return this.tasks.cancelForExecution(tenant, body.executionId);
  }

  @EventPattern(RunSubjects.executionFailed)
  failed(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<number> {
    return this.tasks.cancelForExecution(tenant, body.executionId);
  }
}
