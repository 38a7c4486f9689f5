import type { AgentRunView, ChatMessage, TokenUsage, ToolCall } from '@platform/messaging';

/** Where a run is in its loop; persisted while it waits for an approval, so any replica can resume it. */
export interface LoopState {
  messages: ChatMessage[];
  /** Tool calls of the model's last answer not yet answered; while waiting, the first is the one to approve. */
  queue: ToolCall[];
  /** Model and tool calls made (the step limit). */
  steps: number;
  /** Time spent running, without the waits for approval (the time budget). */
  active_ms: number;
  /** The caller's key mode (a test key's run is sandbox usage), for the resumed model calls. */
  key_mode?: 'live' | 'test';
}

export interface AgentRunRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  agent_id: string;
  execution_id: string | null;
  status: AgentRunView['status'];
  input: unknown;
  output: string | null;
  error: { code: string; message: string } | null;
  steps: Record<string, unknown>[];
  usage: TokenUsage;
  task_id: string | null;
  state: LoopState | null;
  created_at: Date;
  finished_at: Date | null;
}

export function toAgentRunView(row: AgentRunRow): AgentRunView & { execution_id: string | null } {
  return {
    id: row.id,
    agent_id: row.agent_id,
    execution_id: row.execution_id,
    status: row.status,
    task_id: row.status === 'waiting_approval' ? row.task_id : null,
    input: row.input,
    output: row.output,
    error: row.error,
    steps: row.steps,
    usage: row.usage,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
