import type { EntityManager } from 'typeorm';
import type { WorkflowDefinition } from './definition/workflow-definition.js';

export interface WorkflowRow {
  id: string;
  name: string;
  description: string | null;
  status: 'active' | 'disabled';
  current_version: number;
  definition: WorkflowDefinition;
  version: number;
  created_at: Date;
  updated_at: Date;
}

// The version's own name, description and status: for the current version they are the workflow's.
const SELECT = `select w.id, v.name, v.description, v.status, w.current_version, v.version, v.definition, w.created_at, w.updated_at
  from run.workflows w join run.workflow_versions v on v.tenant_id = w.tenant_id and v.workflow_id = w.id`;

export const workflowsRepository = {
  async insert(
    m: EntityManager,
    ctx: { tenantId: string; environmentId: string; scopeId: string | null },
    id: string,
    name: string,
    description: string | null,
    definition: WorkflowDefinition,
  ): Promise<void> {
    await m.query(
      `insert into run.workflows (tenant_id, environment_id, id, scope_id, name, description, current_version) values ($1, $2, $3, $4, $5, $6, 1)`,
      [ctx.tenantId, ctx.environmentId, id, ctx.scopeId, name, description],
    );
    await m.query(
      `insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, description, status) values ($1, $2, $3, 1, $4, $5, $6, 'active')`,
      [ctx.tenantId, ctx.environmentId, id, definition, name, description],
    );
  },

  async get(m: EntityManager, id: string, version?: number): Promise<WorkflowRow | undefined> {
    const rows = await m.query<WorkflowRow[]>(`${SELECT} where w.id = $1 and w.deleted_at is null and v.version = coalesce($2::int, w.current_version)`, [
      id,
      version ?? null,
    ]);
    return rows[0];
  },

  async definition(m: EntityManager, workflowId: string, version: number): Promise<WorkflowDefinition | undefined> {
    // With the workflow's name: a human task shows it to the person deciding.
    const rows = await m.query<{ definition: WorkflowDefinition; name: string | null }[]>(
      `select v.definition, w.name from run.workflow_versions v left join run.workflows w on w.tenant_id = v.tenant_id and w.id = v.workflow_id
        where v.workflow_id = $1 and v.version = $2`,
      [workflowId, version],
    );
    return rows[0] ? { ...rows[0].definition, name: rows[0].name ?? undefined } : undefined;
  },

  async lock(m: EntityManager, id: string): Promise<{ current_version: number; tenant_id: string; environment_id: string } | undefined> {
    const rows = await m.query<
      {
        current_version: number;
        tenant_id: string;
        environment_id: string;
      }[]
    >(`select current_version, tenant_id, environment_id from run.workflows where id = $1 and deleted_at is null for update`, [id]);
    return rows[0];
  },

  async addVersion(
    m: EntityManager,
    ctx: { tenant_id: string; environment_id: string },
    id: string,
    version: number,
    definition: WorkflowDefinition,
    meta: { name: string; description: string | null; status: string },
  ): Promise<void> {
    await m.query(
      `insert into run.workflow_versions (tenant_id, environment_id, workflow_id, version, definition, name, description, status) values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [ctx.tenant_id, ctx.environment_id, id, version, definition, meta.name, meta.description, meta.status],
    );
    await m.query(`update run.workflows set current_version = $2, name = $3, description = $4, status = $5, updated_at = now() where id = $1`, [
      id,
      version,
      meta.name,
      meta.description,
      meta.status,
    ]);
  },

  async list(m: EntityManager, filter: { afterId?: string; status?: string; name?: string; limit: number }): Promise<WorkflowRow[]> {
    return await m.query<WorkflowRow[]>(
      `${SELECT} where w.deleted_at is null and v.version = w.current_version
         and ($1::uuid is null or w.id < $1) and ($2::text is null or w.status = $2) and ($3::text is null or w.name ilike $3 || '%')
       order by w.id desc limit $4`,
      [filter.afterId ?? null, filter.status ?? null, filter.name?.replace(/[%_\\]/g, (c) => `\\${c}`) ?? null, filter.limit + 1],
    );
  },

  async softDelete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown, number]>(`update run.workflows set deleted_at = now(), updated_at = now() where id = $1 and deleted_at is null`, [
      id,
    ]);
    return count > 0;
  },
};
