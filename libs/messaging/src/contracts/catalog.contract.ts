import { IsInt, IsOptional, IsString, IsUUID, Max, MaxLength, Min } from 'class-validator';
import { MAX_PAGE_SIZE, type Page } from '@platform/common';

/** Subjects the catalog service answers or emits. Added here as its features are built. */
export const CatalogSubjects = {} as const;

/** None yet: added here as the service's features are built. */
export type CatalogRequests = CatalogAgentRequests;

/** None yet: added here as the service's features are built. */
export type CatalogEvents = Record<never, never>;

// --- AI agent configurations (apps/catalog/src/ai-agents), read by the AI runtime ---

/** Catalog subjects of AI agent configurations. */
export const CatalogAgentSubjects = {
  /** Request: one agent configuration visible to the caller (404 otherwise). */
  agentsGet: 'catalog.ai-agents.get',
  /** Request: the agent configurations visible to the caller. */
  agentsList: 'catalog.ai-agents.list',
} as const;

/** A tool an agent may call: a workflow (started and awaited), a knowledge-base query, or a connector operation. */
export interface AgentTool {
  type: 'workflow' | 'knowledge_base' | 'connector';
  /** The function name the model sees: `[a-zA-Z0-9_-]{1,64}`. */
  name: string;
  description: string;
  workflow_id?: string;
  knowledge_base_id?: string;
  top_k?: number;
  connection_id?: string;
  customer_connection?: string;
  operation_id?: string;
  /** JSON Schema of the tool's input (workflow and connector tools); a free object when absent. */
  parameters?: Record<string, unknown>;
  requires_approval?: boolean;
}

export interface AgentConfig {
  id: string;
  name: string;
  description: string | null;
  model: string;
  instructions: string;
  tools: AgentTool[];
  max_steps: number | null;
  time_budget_seconds: number | null;
  customer_id: string | null;
  created_at: string;
  updated_at: string;
}

export class GetAgentRequest {
  @IsUUID()
  agentId!: string;
}

export class ListAgentsRequest {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit?: number;

  /** The `next_cursor` of the previous page, as `GET /ai/agents` was given it. */
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}

export interface CatalogAgentRequests {
  [CatalogAgentSubjects.agentsGet]: { request: GetAgentRequest; response: AgentConfig };
  [CatalogAgentSubjects.agentsList]: { request: ListAgentsRequest; response: Page<AgentConfig> };
}
