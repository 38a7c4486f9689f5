import type { AgentConfig, AgentTool } from '@platform/messaging';

export interface AiAgentRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  description: string | null;
  model: string;
  instructions: string;
  tools: AgentTool[];
  max_steps: number | null;
  time_budget_seconds: number | null;
  created_at: Date;
  updated_at: Date;
}

export function toAgentConfig(row: AiAgentRow): AgentConfig {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    model: row.model,
    instructions: row.instructions,
    tools: row.tools,
    max_steps: row.max_steps,
    time_budget_seconds: row.time_budget_seconds,
    customer_id: row.scope_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export const AGENT_EXAMPLE = {
  id: '01937b80-0000-7cc1-9f3e-5b1a2c3d4e5f',
  name: 'Support assistant',
  description: 'Answers with the handbook and the order workflow',
  model: 'openai/gpt-4o-mini',
  instructions: 'You are a support assistant. Use the tools.',
  tools: [
    { type: 'knowledge_base', name: 'handbook', description: 'Search the support handbook', knowledge_base_id: '01937b6e-6c1a-7cc1-9f3e-5b1a2c3d4e5f' },
    { type: 'workflow', name: 'order_status', description: 'Status of an order by number', workflow_id: '01937b81-0000-7cc1-9f3e-5b1a2c3d4e5f' },
  ],
  max_steps: 8,
  time_budget_seconds: 120,
  customer_id: null,
  created_at: '2026-11-24T10:00:00.000Z',
  updated_at: '2026-11-24T10:00:00.000Z',
};
