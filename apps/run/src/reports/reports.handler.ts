import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ValidationFailedError } from '@platform/common';
import { TenantDb } from '@platform/db';
import {
  ExecutionsReportRequest,
  RecentExecutionsRequest,
  RunSubjects,
  TenantPayload,
  type ExecutionsReport,
  type RecentExecution,
  type TenantMessage,
} from '@platform/messaging';
import { reportsRepository } from './reports.repository.js';

/** Read-only counts and lists of executions for the portal; the caller's scope confines them (RLS). */
@Controller()
export class ReportsHandler {
  constructor(private readonly db: TenantDb) {}

  @MessagePattern(RunSubjects.executionsReport)
  report(@TenantPayload(ExecutionsReportRequest) { tenant, body }: TenantMessage<ExecutionsReportRequest>): Promise<ExecutionsReport> {
    const from = new Date(body.from);
    const to = new Date(body.to);
    if (!(from < to)) throw new ValidationFailedError([{ field: 'to', message: 'must be after from' }]);
    return this.db.run(tenant, (m) => reportsRepository.report(m, { from, to, customerId: body.customerId ?? null, top: body.top }));
  }

  @MessagePattern(RunSubjects.executionsRecent)
  async recent(@TenantPayload(RecentExecutionsRequest) { tenant, body }: TenantMessage<RecentExecutionsRequest>): Promise<{ data: RecentExecution[] }> {
    return { data: await this.db.run(tenant, (m) => reportsRepository.recent(m, body.workflowIds ?? null, body.limit)) };
  }
}
