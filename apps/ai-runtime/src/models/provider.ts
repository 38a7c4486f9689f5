import type { ChatMessage, ResponseFormat, TokenUsage, ToolDefinition } from '@platform/messaging';

/** One chat call as every provider takes it (generate is a chat with a system and a user turn). */
export interface ChatCall {
  model: string;
  messages: ChatMessage[];
  tools?: ToolDefinition[];
  maxTokens?: number;
  temperature?: number;
  responseFormat?: ResponseFormat;
}

export interface ChatOutcome {
  message: ChatMessage;
  finishReason: string;
  usage: TokenUsage;
}

/** What a streamed answer yields: text deltas, then one `done` with the totals. */
export type StreamEvent = { type: 'delta'; text: string } | { type: 'done'; finishReason: string; usage: TokenUsage; message: ChatMessage };

export interface EmbedOutcome {
  embeddings: number[][];
  usage: TokenUsage;
}

/**
 * The one interface behind which every model runs: the built-in local model and any
 * OpenAI-compatible API (OpenAI, Azure OpenAI's v1 endpoint, vLLM, Ollama, llama.cpp server).
 * Implementations throw ProviderError (errors.ts) for every provider-side failure.
 */
export interface LlmProvider {
  chat(call: ChatCall, signal: AbortSignal): Promise<ChatOutcome>;
  chatStream(call: ChatCall, signal: AbortSignal): AsyncIterable<StreamEvent>;
  embed(model: string, input: string[], signal: AbortSignal): Promise<EmbedOutcome>;
}

export function usageOf(prompt: number, completion: number): TokenUsage {
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
}
