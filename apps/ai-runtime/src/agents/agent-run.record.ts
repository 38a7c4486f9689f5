import type { AgentRunView, TokenUsage } from '@platform/messaging';

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
  created_at: Date;
  finished_at: Date | null;
}

export function toAgentRunView(row: AgentRunRow): AgentRunView & { execution_id: string | null } {
  return {
    id: row.id,
    agent_id: row.agent_id,
    execution_id: row.execution_id,
    status: row.status,
    input: row.input,
    output: row.output,
    error: row.error,
    steps: row.steps,
    usage: row.usage,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
