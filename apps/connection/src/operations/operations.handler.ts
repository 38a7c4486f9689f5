import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { ConnectionSubjects, ExecuteOperationRequest, TenantPayload, type ExecuteOperationResult, type TenantMessage } from '@platform/messaging';
import { OperationsService } from './operations.service.js';

/** Connector operations for the engine's `connector` step and AI agents' connector tools. */
@Controller()
export class OperationsHandler {
  constructor(private readonly operations: OperationsService) {}

  @MessagePattern(ConnectionSubjects.operationsExecute)
  execute(@TenantPayload(ExecuteOperationRequest) { tenant, body }: TenantMessage<ExecuteOperationRequest>): Promise<ExecuteOperationResult> {
    return this.operations.execute(tenant, body);
  }
}
