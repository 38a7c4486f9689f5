import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
} from 'class-validator';

/** Subjects the ai-runtime service answers or emits. */
export const AiRuntimeSubjects = {
  /** Request: one completion from a prompt (`POST /ai/generate`; the `ai.generate` step). */
  generate: 'ai.completions.generate',
  /** Request: one chat turn, possibly with tool calls (`POST /ai/chat`; the `ai.chat` step). */
  chat: 'ai.chat.complete',
  /** Request: embeddings of one or more texts (`POST /ai/embeddings`; the `ai.embed` step, the KB worker). */
  embeddings: 'ai.embeddings.create',
  /** Request: the models the tenant can use (`GET /catalog/llm-models`). */
  modelsList: 'ai.models.list',
  /** Request: run an AI agent to its end (the `ai.agent` step); answered with the agent run. */
  agentsExecute: 'ai.agents.execute',
} as const;

export const RESPONSE_FORMATS = ['text', 'json'] as const;
export type ResponseFormat = (typeof RESPONSE_FORMATS)[number];

export class GenerateRequest {
  @IsString()
  @MaxLength(200)
  model!: string;

  @IsString()
  @MaxLength(400_000)
  prompt!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100_000)
  system?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200_000)
  maxTokens?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @IsOptional()
  @IsIn(RESPONSE_FORMATS)
  responseFormat?: ResponseFormat;
}

/** A tool call the model asked for: `arguments` is the model's JSON text. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** An OpenAI-style chat message: `tool_calls` on assistant turns, `tool_call_id` on tool results. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string | null;
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
}

/** A function the model may call: `parameters` is a JSON Schema. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

export class ChatRequest {
  @IsString()
  @MaxLength(200)
  model!: string;

  /** Checked in depth by the runtime (roles, contents): the same rules as `POST /ai/chat`. */
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsObject({ each: true })
  messages!: ChatMessage[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(128)
  @IsObject({ each: true })
  tools?: ToolDefinition[];

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(200_000)
  maxTokens?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  @Max(2)
  temperature?: number;

  @IsOptional()
  @IsIn(RESPONSE_FORMATS)
  responseFormat?: ResponseFormat;
}

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

export interface GenerateResult {
  model: string;
  text: string;
  finish_reason: string;
  usage: TokenUsage;
}

export interface ChatResult {
  model: string;
  message: ChatMessage;
  finish_reason: string;
  usage: TokenUsage;
}

export class EmbeddingsRequest {
  /** Defaults to the built-in `local/hash-embedding-384`. */
  @IsOptional()
  @IsString()
  @MaxLength(200)
  model?: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(2048)
  @IsString({ each: true })
  @MaxLength(100_000, { each: true })
  input!: string[];
}

export interface EmbeddingsResult {
  model: string;
  dimensions: number;
  embeddings: number[][];
  usage: TokenUsage;
}

export class ModelsListRequest {
  /** Only chat or only embedding models. */
  @IsOptional()
  @IsIn(['chat', 'embedding'])
  kind?: 'chat' | 'embedding';
}

export interface ModelInfo {
  /** What requests name: `<provider>/<model>`. */
  id: string;
  provider: string;
  kind: 'chat' | 'embedding';
  description: string;
}

export interface ModelsList {
  data: ModelInfo[];
}

export class AgentExecuteRequest {
  @IsUUID()
  agentId!: string;

  /** The question or task: text, or an object given to the model as JSON. */
  @IsDefined()
  input!: unknown;

  /** The workflow execution that runs the agent (the `ai.agent` step), recorded on the run. */
  @IsOptional()
  @IsUUID()
  executionId?: string;
}

/** The agent run as `GET /ai/agent-runs/{id}` shows it. */
export interface AgentRunView {
  id: string;
  agent_id: string;
  status: 'running' | 'waiting_approval' | 'succeeded' | 'failed';
  /** While `waiting_approval`: the task (task service) a person decides; null otherwise. */
  task_id: string | null;
  input: unknown;
  output: string | null;
  error: { code: string; message: string } | null;
  steps: Record<string, unknown>[];
  usage: TokenUsage;
  created_at: string;
  finished_at: string | null;
}

export interface AiRuntimeRequests {
  [AiRuntimeSubjects.generate]: { request: GenerateRequest; response: GenerateResult };
  [AiRuntimeSubjects.chat]: { request: ChatRequest; response: ChatResult };
  [AiRuntimeSubjects.embeddings]: { request: EmbeddingsRequest; response: EmbeddingsResult };
  [AiRuntimeSubjects.modelsList]: { request: ModelsListRequest; response: ModelsList };
  [AiRuntimeSubjects.agentsExecute]: { request: AgentExecuteRequest; response: AgentRunView };
}

/** None. */
export type AiRuntimeEvents = Record<never, never>;
