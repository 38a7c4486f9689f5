import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ExecutionStatusEvent, RunSubjects, TenantPayload, type TenantMessage } from '@platform/messaging';
import { TasksService } from './tasks.service.js';

/** An execution that ended (cancelled, timed out, failed, or finished by another branch) takes its open tasks with it. */
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

  @EventPattern(RunSubjects.executionCompleted)
  completed(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<number> {
    return this.tasks.cancelForExecution(tenant, body.executionId);
  }
}
