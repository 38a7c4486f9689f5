import { Injectable, Logger } from '@nestjs/common';
import { NotFoundError, newId, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import {
  Bus,
  CatalogAgentSubjects,
  messageContext,
  type AgentApprovalOutcomeItem,
  type AgentConfig,
  type AgentRunView,
  type TokenUsage,
} from '@platform/messaging';
import type { Caller } from '../completions/completions.service.js';
import { AgentLoop, type LoopEnd } from './agent-loop.js';
import { toAgentRunView, type AgentRunRow, type LoopState } from './agent-run.record.js';
import { agentRunsRepository } from './agent-runs.repository.js';
import { ApprovalRequests } from './approval-requests.js';

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };

/** Sees a run as it happens (the streamed execute): its id once recorded, then each step. */
export interface RunObserver {
  started(runId: string): void;
  step(step: Record<string, unknown>): void;
}

/**
 * Runs agents (the loop is AgentLoop) and keeps their records: every model, tool and approval
 * step is appended as it happens. A tool call that needs approval leaves the run
 * `waiting_approval` with what resuming needs and asks for a task; the task's outcome resumes
 * it on whichever replica takes it from the queue.
 */
@Injectable()
export class AgentRunner {
  private readonly logger = new Logger(AgentRunner.name);

  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly loop: AgentLoop,
    private readonly approvals: ApprovalRequests,
  ) {}

  async agent(caller: Caller, agentId: string): Promise<AgentConfig> {
    return this.bus.request(CatalogAgentSubjects.agentsGet, { agentId }, messageContext(caller), { timeoutMs: 10_000 });
  }

  /** One page of the catalog's agents: the catalog pages them, this passes `limit` and `cursor` through. */
  list(caller: Caller, q: { limit: number; cursor?: string }): Promise<Page<AgentConfig>> {
    return this.bus.request(CatalogAgentSubjects.agentsList, { limit: q.limit, cursor: q.cursor }, messageContext(caller), { timeoutMs: 10_000 });
  }

  async get(caller: Caller, runId: string): Promise<AgentRunView> {
    const row = await this.db.run(caller, (m) => agentRunsRepository.get(m, runId));
    if (!row) throw new NotFoundError('Agent run');
    return toAgentRunView(row);
  }

  /** Runs the agent until it answers, fails, or waits for an approval; answers the run as it then is. */
  async execute(caller: Caller, agentId: string, input: unknown, executionId: string | null = null, observer?: RunObserver): Promise<AgentRunView> {
    const agent = await this.agent(caller, agentId);
    const id = newId();
    const ctx = tenantOf(caller);
    await this.db.run(ctx, (m) => agentRunsRepository.insert(m, { ...ctx, scopeId: ctx.scopeId ?? null, id, agentId, executionId, input }));
    observer?.started(id);
    return toAgentRunView(await this.advance(caller, id, agent, this.loop.initial(agent, input, caller.keyMode), observer));
  }

  /**
   * The decision on a waiting run's tool call (from the task service's queue): claims the run (so
   * one replica resumes it), then continues it in the background; false when it was not waiting
   * for this call (a repeated delivery).
   */
  async resume(tenant: TenantContext, outcome: AgentApprovalOutcomeItem): Promise<boolean> {
    const row = await this.db.run({ ...tenant, scopeId: null }, (m) => agentRunsRepository.claim(m, outcome.agentRunId, outcome.toolCallId));
    if (!row?.state) return false;
    void this.continue(row, row.state, outcome);
    return true;
  }

  private async continue(row: AgentRunRow, state: LoopState, outcome: AgentApprovalOutcomeItem): Promise<void> {
    const caller: Caller = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id, keyMode: state.key_mode };
    try {
      const agent = await this.agent(caller, row.agent_id);
      await this.advance(caller, row.id, agent, state, undefined, outcome);
    } catch (error) {
      this.logger.error(`agent run ${row.id} could not resume: ${(error as Error).message}`);
      const failure = { code: (error as { code?: string }).code ?? 'agent_failed', message: (error as Error).message };
      await this.db
        .run(tenantOf(caller), (m) => agentRunsRepository.finish(m, row.id, { status: 'failed', output: null, error: failure }))
        .catch(() => undefined);
    }
  }

  private async advance(
    caller: Caller,
    runId: string,
    agent: AgentConfig,
    state: LoopState,
    observer?: RunObserver,
    decided?: AgentApprovalOutcomeItem,
  ): Promise<AgentRunRow> {
    const ctx = tenantOf(caller);
    const record = async (step: Record<string, unknown>, usage = NO_USAGE) => {
      await this.db.run(ctx, (m) => agentRunsRepository.appendStep(m, runId, step, usage));
      observer?.step(step);
    };
    const end = await this.loop.run(caller, runId, agent, state, record, decided);
    if (end.kind === 'waiting') return this.wait(ctx, runId, agent, end, observer);
    const outcome =
      end.kind === 'succeeded'
        ? { status: 'succeeded' as const, output: end.output, error: null }
        : { status: 'failed' as const, output: null, error: end.error };
    return this.db.run(ctx, (m) => agentRunsRepository.finish(m, runId, outcome));
  }

  /** Records the wait with what resuming needs, then asks for the task; a request that cannot be queued fails the run. */
  private async wait(
    ctx: TenantContext,
    runId: string,
    agent: AgentConfig,
    end: Extract<LoopEnd, { kind: 'waiting' }>,
    observer?: RunObserver,
  ): Promise<AgentRunRow> {
    const taskId = newId();
    const step = {
      type: 'approval',
      at: new Date().toISOString(),
      status: 'waiting',
      task_id: taskId,
      tool: end.tool.name,
      tool_type: end.tool.type,
      call_id: end.call.id,
      arguments: end.call.function.arguments,
    };
    const row = await this.db.run(ctx, (m) => agentRunsRepository.wait(m, runId, step, end.state, taskId));
    try {
      await this.approvals.request(ctx, agent, runId, taskId, end.call, end.tool, end.args);
    } catch (error) {
      const failure = { code: 'approval_unavailable', message: `the approval task could not be requested: ${(error as Error).message}` };
      return this.db.run(ctx, (m) => agentRunsRepository.finish(m, runId, { status: 'failed', output: null, error: failure }));
    }
    observer?.step(step);
    return row;
  }
}

const tenantOf = (caller: Caller): TenantContext => ({ tenantId: caller.tenantId, environmentId: caller.environmentId, scopeId: caller.scopeId ?? null });
