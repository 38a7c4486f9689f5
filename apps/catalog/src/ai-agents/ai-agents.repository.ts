import type { EntityManager } from 'typeorm';
import type { AgentTool } from '@platform/messaging';
import type { AiAgentRow } from './ai-agent.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, name, description, model, instructions, tools, max_steps, time_budget_seconds, created_at, updated_at`;

export interface AgentFields {
  name?: string;
  description?: string | null;
  model?: string;
  instructions?: string;
  tools?: AgentTool[];
  maxSteps?: number | null;
  timeBudgetSeconds?: number | null;
}

/** Every query on catalog.ai_agents; managers come from TenantDb (RLS). */
export const aiAgentsRepository = {
  async insert(
    m: EntityManager,
    owner: { tenantId: string; environmentId: string; scopeId: string | null; id: string },
    f: Required<AgentFields>,
  ): Promise<AiAgentRow> {
    const rows = await m.query<AiAgentRow[]>(
      `insert into catalog.ai_agents (tenant_id, environment_id, scope_id, id, name, description, model, instructions, tools, max_steps, time_budget_seconds)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) returning ${COLUMNS}`,
      [
        owner.tenantId,
        owner.environmentId,
        owner.scopeId,
        owner.id,
        f.name,
        f.description,
        f.model,
        f.instructions,
        JSON.stringify(f.tools),
        f.maxSteps,
        f.timeBudgetSeconds,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, afterId: string | null, limit: number): Promise<AiAgentRow[]> {
    return m.query<AiAgentRow[]>(`select ${COLUMNS} from catalog.ai_agents where ($1::uuid is null or id > $1) order by id limit $2`, [afterId, limit + 1]);
  },

  async get(m: EntityManager, id: string): Promise<AiAgentRow | undefined> {
    const rows = await m.query<AiAgentRow[]>(`select ${COLUMNS} from catalog.ai_agents where id = $1`, [id]);
    return rows[0];
  },

  async update(m: EntityManager, id: string, f: AgentFields): Promise<AiAgentRow | undefined> {
    const [rows] = await m.query<[AiAgentRow[], number]>(
      `update catalog.ai_agents set name = coalesce($2, name), description = coalesce($3, description), model = coalesce($4, model),
         instructions = coalesce($5, instructions), tools = coalesce($6::jsonb, tools), max_steps = coalesce($7, max_steps),
         time_budget_seconds = coalesce($8, time_budget_seconds), updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [
        id,
        f.name ?? null,
        f.description ?? null,
        f.model ?? null,
        f.instructions ?? null,
        f.tools ? JSON.stringify(f.tools) : null,
        f.maxSteps ?? null,
        f.timeBudgetSeconds ?? null,
      ],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown[], number]>(`delete from catalog.ai_agents where id = $1`, [id]);
    return count > 0;
  },
};
