import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { GetWorkflowRequest, RunSubjects, TenantPayload, type TenantMessage, type WorkflowSummary } from '@platform/messaging';
import { WorkflowsService } from './workflows.service.js';

/** Workflows over NATS: the services that point at a workflow (triggers, webhooks) check it here. */
@Controller()
export class WorkflowsHandler {
  constructor(private readonly workflows: WorkflowsService) {}

  @MessagePattern(RunSubjects.workflowsGet)
  get(@TenantPayload(GetWorkflowRequest) { tenant, body }: TenantMessage<GetWorkflowRequest>): Promise<WorkflowSummary> {
    return this.workflows.summary(tenant, body.workflowId);
  }
}
