import { Inject, Injectable } from '@nestjs/common';
import { NotFoundError, newId } from '@platform/common';
import { TenantDb } from '@platform/db';
import { Bus, CatalogAgentSubjects, messageContext, type AgentConfig, type AgentRunView, type ChatMessage, type TokenUsage } from '@platform/messaging';
import { CompletionsService, type Caller } from '../completions/completions.service.js';
import { AI_CONFIG, type AiConfig } from '../config/ai.config.js';
import { toAgentRunView } from './agent-run.record.js';
import { agentRunsRepository } from './agent-runs.repository.js';
import { AgentTools, ToolFailure, toolDefinition } from './agent-tools.js';

const NO_USAGE: TokenUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
const RESULT_CHARS = 20_000;

class RunEnded extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs an agent: the model is called with the agent's instructions, the input and its tools; each
 * tool call it makes is executed and its result handed back, until the model answers without
 * calling a tool. Every model call and tool call is appended to the run record as it happens.
 * A step limit (model and tool calls together) and a time budget end runaway runs as `failed`.
 */
@Injectable()
export class AgentRunner {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly completions: CompletionsService,
    private readonly tools: AgentTools,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  async agent(caller: Caller, agentId: string): Promise<AgentConfig> {
    return this.bus.request(CatalogAgentSubjects.agentsGet, { agentId }, messageContext(caller), { timeoutMs: 10_000 });
  }

  async list(caller: Caller): Promise<AgentConfig[]> {
    return (await this.bus.request(CatalogAgentSubjects.agentsList, {}, messageContext(caller), { timeoutMs: 10_000 })).data;
  }

  async get(caller: Caller, runId: string): Promise<AgentRunView> {
    const row = await this.db.run(caller, (m) => agentRunsRepository.get(m, runId));
    if (!row) throw new NotFoundError('Agent run');
    return toAgentRunView(row);
  }

  async execute(caller: Caller, agentId: string, input: unknown, executionId: string | null = null): Promise<AgentRunView> {
    const agent = await this.agent(caller, agentId);
    const id = newId();
    const ctx = { tenantId: caller.tenantId, environmentId: caller.environmentId, scopeId: caller.scopeId ?? null };
    await this.db.run(ctx, (m) => agentRunsRepository.insert(m, { ...ctx, id, agentId, executionId, input }));
    const record = (step: Record<string, unknown>, usage = NO_USAGE) => this.db.run(ctx, (m) => agentRunsRepository.appendStep(m, id, step, usage));
    let outcome: { status: 'succeeded' | 'failed'; output: string | null; error: { code: string; message: string } | null };
    try {
      outcome = { status: 'succeeded', output: await this.loop(caller, id, agent, input, record), error: null };
    } catch (error) {
      const code = error instanceof RunEnded ? error.code : ((error as { code?: string }).code ?? 'agent_failed');
      outcome = { status: 'failed', output: null, error: { code, message: (error as Error).message } };
    }
    const row = await this.db.run(ctx, (m) => agentRunsRepository.finish(m, id, outcome));
    return toAgentRunView(row);
  }

  private async loop(
    caller: Caller,
    runId: string,
    agent: AgentConfig,
    input: unknown,
    record: (step: Record<string, unknown>, usage?: TokenUsage) => Promise<void>,
  ): Promise<string> {
    const maxSteps = agent.max_steps ?? this.config.AI_AGENT_MAX_STEPS;
    const deadline = Date.now() + (agent.time_budget_seconds ? agent.time_budget_seconds * 1000 : this.config.AI_AGENT_TIME_BUDGET_MS);
    const byName = new Map(agent.tools.map((t) => [t.name, t]));
    const tools = agent.tools.map(toolDefinition);
    const messages: ChatMessage[] = [
      { role: 'system', content: agent.instructions },
      { role: 'user', content: typeof input === 'string' ? input : JSON.stringify(input) },
    ];
    let steps = 0;
    const take = () => {
      if (++steps > maxSteps) throw new RunEnded('step_limit', `the agent made ${maxSteps} model and tool calls without finishing`);
      if (Date.now() > deadline) throw new RunEnded('time_budget', "the agent's time budget ran out");
    };
    for (;;) {
      take();
      const started = Date.now();
      const answer = await this.completions.chat(caller, { model: agent.model, messages, tools: tools.length ? tools : undefined });
      await record(
        {
          type: 'model',
          at: new Date(started).toISOString(),
          duration_ms: Date.now() - started,
          finish_reason: answer.finish_reason,
          message: answer.message,
          usage: answer.usage,
        },
        answer.usage,
      );
      const calls = answer.message.tool_calls ?? [];
      if (!calls.length) return answer.message.content ?? '';
      messages.push(answer.message);
      for (const call of calls) {
        take();
        const tool = byName.get(call.function.name);
        const at = Date.now();
        let result: unknown;
        let error: { code: string; message: string } | null = null;
        try {
          if (!tool) throw new ToolFailure('unknown_tool', `no tool is named ${call.function.name}`);
          result = await this.tools.call(caller, runId, tool, parseArguments(call.function.arguments), deadline);
        } catch (failure) {
          if (!(failure instanceof ToolFailure)) throw failure;
          error = { code: failure.code, message: failure.message };
        }
        await record({
          type: 'tool',
          at: new Date(at).toISOString(),
          duration_ms: Date.now() - at,
          tool: call.function.name,
          tool_type: tool?.type ?? null,
          call_id: call.id,
          arguments: call.function.arguments,
          ...(error ? { error } : { output: result }),
        });
        messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(error ? { error } : result).slice(0, RESULT_CHARS) });
      }
    }
  }
}

function parseArguments(raw: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(raw || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Reported below, to the model, which may correct itself.
  }
  throw new ToolFailure('invalid_arguments', 'the arguments are not a JSON object');
}
