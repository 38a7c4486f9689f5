import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ExecutionStatusEvent, RunSubjects, TaskEvent, TaskSubjects, TenantPayload, type TenantMessage } from '@platform/messaging';
import { PlatformNoticesService } from './platform-notices.service.js';

/**
 * Platform events that become notices. Core NATS events (one replica of the service gets each):
 * an event published while no replica runs is missed, as the run service's status events are
 * also consumed durably by triggers (a JetStream work-queue stream that cannot be shared).
 */
@Controller()
export class PlatformNoticesHandler {
  constructor(private readonly notices: PlatformNoticesService) {}

  @EventPattern(RunSubjects.executionFailed)
  executionFailed(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<void> {
    return this.notices.executionFailed(tenant, body);
  }

  @EventPattern(RunSubjects.executionTimedOut)
  executionTimedOut(@TenantPayload(ExecutionStatusEvent) { tenant, body }: TenantMessage<ExecutionStatusEvent>): Promise<void> {
    return this.notices.executionFailed(tenant, body);
  }

  @EventPattern(TaskSubjects.taskCreated)
  taskCreated(@TenantPayload(TaskEvent) { tenant, body }: TenantMessage<TaskEvent>): Promise<void> {
    return this.notices.taskNotice(tenant, TaskSubjects.taskCreated, body);
  }

  @EventPattern(TaskSubjects.taskAssigned)
  taskAssigned(@TenantPayload(TaskEvent) { tenant, body }: TenantMessage<TaskEvent>): Promise<void> {
    return this.notices.taskNotice(tenant, TaskSubjects.taskAssigned, body);
  }
}
