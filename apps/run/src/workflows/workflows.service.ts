import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, NotFoundError, decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { usageEventId, type WorkflowSummary } from '@platform/messaging';
import { UsageOutbox, type PendingUsage } from '@platform/service';
import type { DefinitionSource } from '../engine/engine.ports.js';
import { DefinitionValidator } from './definition/definition.validator.js';
import type { DefinitionProblem, WorkflowDefinition } from './definition/workflow-definition.js';
import type { CreateWorkflowRequestDto, ListWorkflowsQueryDto, PatchWorkflowRequestDto, WorkflowResponse } from './dto/workflow.dto.js';
import { workflowsRepository, type WorkflowRow } from './workflows.repository.js';

export function toWorkflowResponse(row: WorkflowRow): WorkflowResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    version: row.version,
    status: row.status,
    input_schema: row.definition.input_schema ?? null,
    steps: row.definition.steps,
    settings: row.definition.settings ?? {},
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export class InvalidDefinitionError extends AppError {
  constructor(readonly problems: DefinitionProblem[]) {
    super(
      'invalid_definition',
      400,
      `The workflow definition has ${problems.length} problem(s): ${problems
        .slice(0, 5)
        .map((p) => `${p.path} ${p.message}`)
        .join('; ')}`,
      problems.map((p) => ({ field: p.path, message: p.step_id ? `[step ${p.step_id}] ${p.message}` : p.message })),
    );
  }
}

/** Workflow CRUD, and the engine's DefinitionSource: the version an execution runs. */
@Injectable()
export class WorkflowsService implements DefinitionSource {
  constructor(
    private readonly db: TenantDb,
    private readonly validator: DefinitionValidator,
    private readonly usage: UsageOutbox,
  ) {}

  /** active_workflows is a level: +1 when one is made, -1 when one is deleted; the fact is committed with the change. */
  private fact(principal: Principal, id: string, quantity: 1 | -1): PendingUsage {
    return this.usage.fact(principal, {
      metric: 'active_workflows',
      quantity,
      eventId: usageEventId('workflow', id, String(quantity)),
      keyMode: principal.keyMode,
    });
  }

  validate(definition: WorkflowDefinition): DefinitionProblem[] {
    return this.validator.validate(definition);
  }

  async create(principal: Principal, dto: CreateWorkflowRequestDto): Promise<WorkflowResponse> {
    const definition = this.checked({ steps: dto.steps, input_schema: dto.input_schema ?? null, settings: dto.settings ?? {} });
    const id = newId();
    const made = this.fact(principal, id, 1);
    const created = await this.db.run(principal, async (m) => {
      await workflowsRepository.insert(m, principal, id, dto.name, dto.description ?? null, definition);
      await this.usage.add(m, [made]);
      return toWorkflowResponse((await workflowsRepository.get(m, id))!);
    });
    this.usage.publish([made]);
    return created;
  }

  async update(
    principal: Principal,
    id: string,
    dto: PatchWorkflowRequestDto & Partial<CreateWorkflowRequestDto>,
    replace: boolean,
  ): Promise<WorkflowResponse> {
    return this.db.run(principal, async (m) => {
      const locked = await workflowsRepository.lock(m, id);
      if (!locked) throw new NotFoundError('Workflow');
      const current = (await workflowsRepository.get(m, id))!;
      const definition = this.checked({
        steps: dto.steps ?? current.definition.steps,
        input_schema: dto.input_schema !== undefined ? dto.input_schema : replace ? null : (current.definition.input_schema ?? null),
        settings: dto.settings ?? (replace ? {} : (current.definition.settings ?? {})),
      });
      const meta = {
        name: dto.name ?? current.name,
        description: dto.description !== undefined ? dto.description : replace ? null : current.description,
        status: dto.status ?? current.status,
      };
      // Every change is a new immutable version; executions keep the version they started with.
      await workflowsRepository.addVersion(m, locked, id, locked.current_version + 1, definition, meta);
      return toWorkflowResponse((await workflowsRepository.get(m, id))!);
    });
  }

  async get(principal: Principal, id: string, version?: number): Promise<WorkflowResponse> {
    const row = await this.db.run(principal, (m) => workflowsRepository.get(m, id, version));
    if (!row) throw new NotFoundError(version ? 'Workflow version' : 'Workflow');
    return toWorkflowResponse(row);
  }

  /** For other services (triggers, webhooks) checking a workflow they are given: 404 also for another tenant's. */
  async summary(ctx: TenantContext, id: string): Promise<WorkflowSummary> {
    const row = await this.db.run(ctx, (m) => workflowsRepository.get(m, id));
    if (!row) throw new NotFoundError('Workflow');
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      settings: { ...(row.definition.settings ?? {}) },
      input_schema: row.definition.input_schema ?? null,
    };
  }

  async list(principal: Principal, query: ListWorkflowsQueryDto): Promise<Page<WorkflowResponse>> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(principal, (m) =>
      workflowsRepository.list(m, { afterId: after?.id, status: query.status, name: query.name, limit: query.limit }),
    );
    return toPage(rows, query.limit, toWorkflowResponse, (r) => ({ id: r.id }));
  }

  /** Any version, of a deleted workflow too: running executions keep the version they started with. */
  definition(ctx: TenantContext, workflowId: string, version: number): Promise<WorkflowDefinition | undefined> {
    return this.db.run(ctx, (m) => workflowsRepository.definition(m, workflowId, version));
  }

  async remove(principal: Principal, id: string): Promise<void> {
    // Soft: running executions keep their version and finish; new starts find no workflow.
    const removed = this.fact(principal, id, -1);
    const deleted = await this.db.run(principal, async (m) => {
      const found = await workflowsRepository.softDelete(m, id);
      if (found) await this.usage.add(m, [removed]);
      return found;
    });
    if (!deleted) throw new NotFoundError('Workflow');
    this.usage.publish([removed]);
  }

  private checked(definition: WorkflowDefinition): WorkflowDefinition {
    const problems = this.validator.validate(definition);
    if (problems.length) throw new InvalidDefinitionError(problems);
    return definition;
  }
}
