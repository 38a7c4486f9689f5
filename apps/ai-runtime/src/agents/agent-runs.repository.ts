import type { EntityManager } from 'typeorm';
import type { TokenUsage } from '@platform/messaging';
import type { AgentRunRow, LoopState } from './agent-run.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, agent_id, execution_id, status, input, output, error, steps, usage, task_id, state, created_at, finished_at`;

/** Every query on ai.agent_runs; managers come from TenantDb (RLS). */
export const agentRunsRepository = {
  async insert(
    m: EntityManager,
    r: { tenantId: string; environmentId: string; scopeId: string | null; id: string; agentId: string; executionId: string | null; input: unknown },
  ): Promise<void> {
    await m.query(
      `insert into ai.agent_runs (tenant_id, environment_id, scope_id, id, agent_id, execution_id, status, input) values ($1, $2, $3, $4, $5, $6, 'running', $7)`,
      [r.tenantId, r.environmentId, r.scopeId, r.id, r.agentId, r.executionId, JSON.stringify(r.input)],
    );
  },

  /** Appends one model or tool call to the record, as it happens. */
  async appendStep(m: EntityManager, id: string, step: Record<string, unknown>, usage: TokenUsage): Promise<void> {
    await m.query(
      `update ai.agent_runs set steps = steps || jsonb_build_array($2::jsonb), updated_at = now(),
         usage = jsonb_build_object('prompt_tokens', (usage->>'prompt_tokens')::int + $3, 'completion_tokens', (usage->>'completion_tokens')::int + $4,
                                    'total_tokens', (usage->>'total_tokens')::int + $5)
        where id = $1`,
      [id, JSON.stringify(step), usage.prompt_tokens, usage.completion_tokens, usage.total_tokens],
    );
  },

  async finish(
    m: EntityManager,
    id: string,
    outcome: { status: 'succeeded' | 'failed'; output: string | null; error: { code: string; message: string } | null },
  ): Promise<AgentRunRow> {
    const [rows] = await m.query<[AgentRunRow[], number]>(
      `update ai.agent_runs set status = $2, output = $3, error = $4, state = null, task_id = null, finished_at = now(), updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, outcome.status, outcome.output, outcome.error ? JSON.stringify(outcome.error) : null],
    );
    return rows[0];
  },

  /** The run waits for the approval task: the step recorded, and what resuming needs kept. */
  async wait(m: EntityManager, id: string, step: Record<string, unknown>, state: LoopState, taskId: string): Promise<AgentRunRow> {
    const [rows] = await m.query<[AgentRunRow[], number]>(
      `update ai.agent_runs set status = 'waiting_approval', steps = steps || jsonb_build_array($2::jsonb), state = $3, task_id = $4, updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, JSON.stringify(step), JSON.stringify(state), taskId],
    );
    return rows[0];
  },

  /**
   * Takes a waiting run back to running for the decision on its pending tool call; undefined
   * when it is not waiting for that call (a second delivery, another replica took it first).
   */
  async claim(m: EntityManager, id: string, toolCallId: string): Promise<AgentRunRow | undefined> {
    const [rows] = await m.query<[AgentRunRow[], number]>(
      `update ai.agent_runs set status = 'running', updated_at = now()
        where id = $1 and status = 'waiting_approval' and state->'queue'->0->>'id' = $2 returning ${COLUMNS}`,
      [id, toolCallId],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string): Promise<AgentRunRow | undefined> {
    const rows = await m.query<AgentRunRow[]>(`select ${COLUMNS} from ai.agent_runs where id = $1`, [id]);
    return rows[0];
  },
};
