import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { Principal } from '@platform/auth';
import {
  CreateWorkflowMessage,
  GetWorkflowRequest,
  RunSubjects,
  TenantPayload,
  type CreatedWorkflow,
  type TenantMessage,
  type WorkflowSummary,
} from '@platform/messaging';
import type { CreateWorkflowRequestDto } from './dto/workflow.dto.js';
import { WorkflowsService } from './workflows.service.js';

/** Workflows over NATS: the services that point at a workflow (triggers, webhooks) check it here; the catalog creates them from templates. */
@Controller()
export class WorkflowsHandler {
  constructor(private readonly workflows: WorkflowsService) {}

  @MessagePattern(RunSubjects.workflowsGet)
  get(@TenantPayload(GetWorkflowRequest) { tenant, body }: TenantMessage<GetWorkflowRequest>): Promise<WorkflowSummary> {
    return this.workflows.summary(tenant, body.workflowId);
  }

  @MessagePattern(RunSubjects.workflowsCreate)
  async create(@TenantPayload(CreateWorkflowMessage) { tenant, body }: TenantMessage<CreateWorkflowMessage>): Promise<CreatedWorkflow> {
    // Only the tenant context is read on this path (the same checks as the HTTP route apply to the definition).
    const created = await this.workflows.create(tenant as Principal, body as unknown as CreateWorkflowRequestDto);
    return created as unknown as CreatedWorkflow;
  }
}
