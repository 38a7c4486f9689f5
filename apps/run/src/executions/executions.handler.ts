import { Controller, Logger } from '@nestjs/common';
import { EventPattern, MessagePattern, Payload } from '@nestjs/microservices';
import { IsBoolean, IsIn, IsObject, IsOptional, IsString, IsUUID, Length, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { newId, rpcError, validatePayload } from '@platform/common';
import { TenantDb } from '@platform/db';
import { RunSubjects, TaskSubjects, hasTenant, type Envelope, type StartExecutionResponse } from '@platform/messaging';
import { ExecutionQueue } from '../engine/work-queue.js';
import { ExecutionStarter } from './execution.starter.js';
import { executionsRepository } from './executions.repository.js';

class TriggerPayload {
  @IsIn(['api', 'schedule', 'event', 'webhook', 'portal', 'subworkflow'])
  type!: string;

  @IsOptional()
  @IsString()
  id!: string | null;
}

class StartPayload {
  @IsUUID()
  workflowId!: string;

  @IsObject()
  input!: Record<string, unknown>;

  @ValidateNested()
  @Type(() => TriggerPayload)
  trigger!: TriggerPayload;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  idempotencyKey?: string;
}

class TaskCompletedPayload {
  @IsUUID()
  executionId!: string;

  @IsString()
  @Length(1, 1000)
  stepPath!: string;

  @IsBoolean()
  approved!: boolean;

  @IsOptional()
  @IsObject()
  data?: Record<string, unknown>;

  @IsOptional()
  @IsString()
  completedBy?: string;
}

@Controller()
export class ExecutionsHandler {
  private readonly logger = new Logger(ExecutionsHandler.name);

  constructor(
    private readonly starter: ExecutionStarter,
    private readonly db: TenantDb,
    private readonly queue: ExecutionQueue,
  ) {}

  /** Triggers, webhooks and the portal start runs here. */
  @MessagePattern(RunSubjects.executionsStart)
  async start(@Payload() message: Envelope<unknown>): Promise<StartExecutionResponse> {
    if (!message?.context || !hasTenant(message.context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
    const body = validatePayload(StartPayload, message.data);
    const { execution, status } = await this.starter.start(
      { tenantId: message.context.tenantId, environmentId: message.context.environmentId, scopeId: message.context.scopeId ?? null },
      { workflowId: body.workflowId, input: body.input, trigger: { type: body.trigger.type, id: body.trigger.id ?? null }, idempotencyKey: body.idempotencyKey },
    );
    return { runId: execution.id, status };
  }

  /** An approval step's human task was completed: record the decision and resume the run. */
  @EventPattern(TaskSubjects.taskCompleted)
  async taskCompleted(@Payload() message: Envelope<unknown>): Promise<void> {
    if (!message?.context || !hasTenant(message.context)) return;
    let body: TaskCompletedPayload;
    try {
      body = validatePayload(TaskCompletedPayload, message.data);
    } catch {
      this.logger.warn('ignored a malformed task.task.completed event');
      return;
    }
    const ctx = { tenantId: message.context.tenantId, environmentId: message.context.environmentId, scopeId: message.context.scopeId ?? null };
    const resolved = await this.db.run(ctx, (m) =>
      executionsRepository.resolveWaitingStep(m, ctx, body.executionId, body.stepPath, {
        id: newId(),
        status: 'succeeded',
        output: { approved: body.approved === true, data: body.data ?? {}, completed_by: body.completedBy ?? null },
        error: null,
      }),
    );
    if (resolved) await this.queue.enqueue({ executionId: body.executionId, ...ctx }, `task:${body.stepPath}`);
  }
}
