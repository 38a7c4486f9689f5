import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { TenantDb } from '@platform/db';
import { CountOpenTasksRequest, TaskSubjects, TenantPayload, type TenantMessage } from '@platform/messaging';
import { tasksRepository } from './tasks.repository.js';

/** The portal's "open tasks" widget: one count through `tasks_list` (tenant_id, environment_id, status, id). */
@Controller()
export class OpenTasksHandler {
  constructor(private readonly db: TenantDb) {}

  @MessagePattern(TaskSubjects.tasksCountOpen)
  async count(@TenantPayload(CountOpenTasksRequest) { tenant, body }: TenantMessage<CountOpenTasksRequest>): Promise<{ open: number }> {
    return { open: await this.db.run(tenant, (m) => tasksRepository.countOpen(m, body.customerId ?? null)) };
  }
}
