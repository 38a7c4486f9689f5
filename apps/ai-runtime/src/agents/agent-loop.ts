import { Inject, Injectable } from '@nestjs/common';
import type { AgentApprovalOutcomeItem, AgentConfig, AgentTool, ToolCall, TokenUsage } from '@platform/messaging';
import { CompletionsService, type Caller } from '../completions/completions.service.js';
import { AI_CONFIG, type AiConfig } from '../config/ai.config.js';
import type { LoopState } from './agent-run.record.js';
import { AgentTools, ToolFailure, toolDefinition } from './agent-tools.js';
import { decisionOf } from './approval-decision.js';

const RESULT_CHARS = 20_000;

/** Appends a model, tool or approval step to the run record (and to the stream, when there is one). */
export type StepSink = (step: Record<string, unknown>, usage?: TokenUsage) => Promise<void>;

export type LoopEnd =
  | { kind: 'succeeded'; output: string }
  | { kind: 'failed'; error: { code: string; message: string } }
  /** A tool call needs a person's approval: `state` is what resuming needs, its queue starts with `call`. */
  | { kind: 'waiting'; state: LoopState; call: ToolCall; tool: AgentTool; args: Record<string, unknown> };

class RunEnded extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The tool-calling loop: the model is called with the agent's instructions, the input and its
 * tools; each tool call it makes is executed and its result handed back, until the model answers
 * without calling a tool. A call of a tool that `requires_approval` pauses the loop (the caller
 * persists the state and asks for a task); `run` with the decision continues where it paused.
 * The step limit counts model and tool calls, the time budget only time spent running.
 */
@Injectable()
export class AgentLoop {
  constructor(
    private readonly completions: CompletionsService,
    private readonly tools: AgentTools,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  initial(agent: AgentConfig, input: unknown, keyMode?: 'live' | 'test'): LoopState {
    return {
      messages: [
        { role: 'system', content: agent.instructions },
        { role: 'user', content: typeof input === 'string' ? input : JSON.stringify(input) },
      ],
      queue: [],
      steps: 0,
      active_ms: 0,
      key_mode: keyMode,
    };
  }

  async run(caller: Caller, runId: string, agent: AgentConfig, state: LoopState, record: StepSink, decided?: AgentApprovalOutcomeItem): Promise<LoopEnd> {
    const started = Date.now();
    const budgetMs = agent.time_budget_seconds ? agent.time_budget_seconds * 1000 : this.config.AI_AGENT_TIME_BUDGET_MS;
    const deadline = started + budgetMs - state.active_ms;
    const maxSteps = agent.max_steps ?? this.config.AI_AGENT_MAX_STEPS;
    const byName = new Map(agent.tools.map((t) => [t.name, t]));
    const definitions = agent.tools.map(toolDefinition);
    const take = () => {
      if (++state.steps > maxSteps) throw new RunEnded('step_limit', `the agent made ${maxSteps} model and tool calls without finishing`);
      if (Date.now() > deadline) throw new RunEnded('time_budget', "the agent's time budget ran out");
    };
    try {
      if (decided) await this.decided(caller, runId, byName, state, record, decided, take, deadline);
      for (;;) {
        while (state.queue.length) {
          const call = state.queue[0];
          const tool = byName.get(call.function.name);
          const args = tool?.requires_approval ? argumentsOf(call.function.arguments) : null;
          if (tool && args) {
            state.active_ms += Date.now() - started;
            return { kind: 'waiting', state, call, tool, args };
          }
          take();
          await this.callTool(caller, runId, tool, call, null, record, state, deadline);
        }
        take();
        const at = Date.now();
        const answer = await this.completions.chat(caller, {
          model: agent.model,
          messages: state.messages,
          tools: definitions.length ? definitions : undefined,
        });
        await record(
          {
            type: 'model',
            at: new Date(at).toISOString(),
            duration_ms: Date.now() - at,
            finish_reason: answer.finish_reason,
            message: answer.message,
            usage: answer.usage,
          },
          answer.usage,
        );
        const calls = answer.message.tool_calls ?? [];
        if (!calls.length) return { kind: 'succeeded', output: answer.message.content ?? '' };
        state.messages.push(answer.message);
        state.queue = [...calls];
      }
    } catch (error) {
      const code = error instanceof RunEnded ? error.code : ((error as { code?: string }).code ?? 'agent_failed');
      return { kind: 'failed', error: { code, message: (error as Error).message } };
    }
  }

  /** The decision on the first queued call: recorded; approved, the tool runs (with the edited arguments); otherwise the model is told. */
  private async decided(
    caller: Caller,
    runId: string,
    byName: Map<string, AgentTool>,
    state: LoopState,
    record: StepSink,
    outcome: AgentApprovalOutcomeItem,
    take: () => void,
    deadline: number,
  ): Promise<void> {
    const call = state.queue[0];
    const decision = decisionOf(outcome, argumentsOf(call.function.arguments) ?? {});
    await record({
      type: 'approval',
      at: new Date().toISOString(),
      status: decision.status,
      task_id: outcome.taskId,
      tool: call.function.name,
      call_id: call.id,
      decided_by: outcome.completedBy ?? null,
      comment: decision.comment,
      ...(decision.status === 'approved' ? { arguments: JSON.stringify(decision.args), edited: decision.edited } : {}),
    });
    if (decision.status === 'approved') {
      take();
      await this.callTool(caller, runId, byName.get(call.function.name), call, decision.args, record, state, deadline);
      return;
    }
    await this.answer(call, byName.get(call.function.name), call.function.arguments, null, decision.refusal, record, state, Date.now());
  }

  /** Runs one tool call (with `args` when approved, else the model's) and gives its result, or its failure, back to the model. */
  private async callTool(
    caller: Caller,
    runId: string,
    tool: AgentTool | undefined,
    call: ToolCall,
    args: Record<string, unknown> | null,
    record: StepSink,
    state: LoopState,
    deadline: number,
  ): Promise<void> {
    const at = Date.now();
    let result: unknown = null;
    let error: { code: string; message: string } | null = null;
    try {
      if (!tool) throw new ToolFailure('unknown_tool', `no tool is named ${call.function.name}`);
      const input = args ?? argumentsOf(call.function.arguments);
      if (!input) throw new ToolFailure('invalid_arguments', 'the arguments are not a JSON object');
      result = await this.tools.call(caller, runId, tool, input, deadline);
    } catch (failure) {
      if (!(failure instanceof ToolFailure)) throw failure;
      error = { code: failure.code, message: failure.message };
    }
    await this.answer(call, tool, args ? JSON.stringify(args) : call.function.arguments, result, error, record, state, at);
  }

  private async answer(
    call: ToolCall,
    tool: AgentTool | undefined,
    args: string,
    result: unknown,
    error: { code: string; message: string } | null,
    record: StepSink,
    state: LoopState,
    at: number,
  ): Promise<void> {
    await record({
      type: 'tool',
      at: new Date(at).toISOString(),
      duration_ms: Date.now() - at,
      tool: call.function.name,
      tool_type: tool?.type ?? null,
      call_id: call.id,
      arguments: args,
      ...(error ? { error } : { output: result }),
    });
    state.messages.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(error ? { error } : result).slice(0, RESULT_CHARS) });
    state.queue.shift();
  }
}

/** The model's arguments as an object; null when they are not a JSON object (the model is told, and may correct itself). */
export function argumentsOf(raw: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(raw || '{}') as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // Not JSON: null below.
  }
  return null;
}
