import OpenAI from 'openai';
import { SecretRedactor } from '@platform/common';
import type { ChatMessage, ToolCall } from '@platform/messaging';
import { checkChunk, checkCompletion, checkEmbeddings } from './provider-answers.js';
import type { ChatCall, ChatOutcome, EmbedOutcome, LlmProvider, StreamEvent } from './provider.js';
import { usageOf } from './provider.js';
import { ProviderFailedError, ProviderRateLimitedError, ProviderTimeoutError } from './provider.errors.js';

export interface OpenAiSettings {
  baseUrl: string;
  apiKey: string;
  /** `authorization` (Bearer, OpenAI and most servers) or `api-key` (Azure OpenAI keys). */
  apiKeyHeader: 'authorization' | 'api-key';
  timeoutMs: number;
}

type OpenAiMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

/** Retry-After as seconds: a number of seconds or an HTTP date; 1 when absent or unreadable. */
function retryAfterSeconds(headers: Headers | undefined): number {
  const raw = headers?.get('retry-after') ?? headers?.get('x-ratelimit-reset-requests');
  if (!raw) return 1;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(1, Math.ceil((date - Date.now()) / 1000)) : 1;
}

/**
 * Every failure of the client library as the runtime's 502 / 504 / 429. A provider's own words
 * are passed on (they name the problem), with the provider's key taken out: servers echo it
 * ("Incorrect API key provided: sk-…"). Anything else is named without the library's internals.
 */
export function mapProviderError(error: unknown, timeoutMs: number, redactor: SecretRedactor): Error {
  if (error instanceof ProviderFailedError || error instanceof ProviderTimeoutError || error instanceof ProviderRateLimitedError) return redactor.error(error);
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new ProviderTimeoutError(timeoutMs);
  if (error instanceof OpenAI.APIUserAbortError) return new ProviderTimeoutError(timeoutMs);
  if (error instanceof OpenAI.APIConnectionError) return new ProviderFailedError('The model provider could not be reached');
  if (error instanceof OpenAI.APIError) {
    if (error.status === 429) return new ProviderRateLimitedError(retryAfterSeconds(error.headers as Headers | undefined));
    const detail =
      typeof error.error === 'object' && error.error && 'message' in error.error
        ? redactor.text(String((error.error as { message: unknown }).message)).slice(0, 300)
        : '';
    return new ProviderFailedError(`The model provider answered ${error.status ?? 'an error'}${detail ? `: ${detail}` : ''}`);
  }
  if ((error as Error)?.name === 'AbortError' || (error as Error)?.name === 'TimeoutError') return new ProviderTimeoutError(timeoutMs);
  // Not the provider's words but the library's or ours (a TypeError on an answer we did not expect): never shown.
  return new ProviderFailedError('The model provider failed: its answer could not be read');
}

function toOpenAi(message: ChatMessage): OpenAiMessage {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', content: message.content ?? '', tool_call_id: message.tool_call_id ?? '' };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.tool_calls?.length ? { tool_calls: message.tool_calls.map((c) => ({ id: c.id, type: 'function' as const, function: c.function })) } : {}),
      };
    case 'system':
      return { role: 'system', content: message.content ?? '' };
    case 'user':
      return { role: 'user', content: message.content ?? '', ...(message.name ? { name: message.name } : {}) };
  }
}

/** Any OpenAI-compatible API through the official `openai` client (no retries of its own: the caller decides). */
export class OpenAiProvider implements LlmProvider {
  private readonly client: OpenAI;
  /** The key is the secret in play in every call: taken out of whatever comes back. */
  private readonly redactor: SecretRedactor;

  constructor(private readonly settings: OpenAiSettings) {
    this.redactor = new SecretRedactor([settings.apiKey]);
    const azureKey = settings.apiKeyHeader === 'api-key';
    this.client = new OpenAI({
      baseURL: settings.baseUrl,
      apiKey: azureKey ? 'unused' : settings.apiKey || 'unused',
      timeout: settings.timeoutMs,
      maxRetries: 0,
      ...(azureKey ? { defaultHeaders: { 'api-key': settings.apiKey, authorization: null } } : {}),
    });
  }

  private params(call: ChatCall) {
    return {
      model: call.model,
      messages: call.messages.map(toOpenAi),
      ...(call.tools?.length ? { tools: call.tools.map((t) => ({ type: 'function' as const, function: t.function })) } : {}),
      ...(call.maxTokens !== undefined ? { max_tokens: call.maxTokens } : {}),
      ...(call.temperature !== undefined ? { temperature: call.temperature } : {}),
      ...(call.responseFormat === 'json' ? { response_format: { type: 'json_object' as const } } : {}),
    };
  }

  async chat(call: ChatCall, signal: AbortSignal): Promise<ChatOutcome> {
    try {
      const answer = checkCompletion(await this.client.chat.completions.create({ ...this.params(call), stream: false }, { signal }));
      const choice = answer.choices[0];
      const toolCalls: ToolCall[] = (choice.message.tool_calls ?? [])
        .filter((c) => c.type === undefined || c.type === 'function')
        .map((c) => ({ id: c.id, type: 'function', function: { name: c.function.name, arguments: c.function.arguments } }));
      return {
        message: this.redactor.redact({ role: 'assistant', content: choice.message.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }),
        finishReason: choice.finish_reason ?? 'stop',
        usage: usageOf(answer.usage?.prompt_tokens ?? 0, answer.usage?.completion_tokens ?? 0),
      };
    } catch (error) {
      throw mapProviderError(error, this.settings.timeoutMs, this.redactor);
    }
  }

  async *chatStream(call: ChatCall, signal: AbortSignal): AsyncIterable<StreamEvent> {
    let text = '';
    let finishReason = 'stop';
    let usage = usageOf(0, 0);
    const calls = new Map<number, ToolCall>();
    // A key split across two pieces would pass a per-piece check: the end that could start one waits for the next piece.
    const redaction = this.redactor.stream();
    try {
      const stream = await this.client.chat.completions.create({ ...this.params(call), stream: true, stream_options: { include_usage: true } }, { signal });
      for await (const raw of stream) {
        const chunk = checkChunk(raw);
        if (chunk.usage) usage = usageOf(chunk.usage.prompt_tokens ?? 0, chunk.usage.completion_tokens ?? 0);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.finish_reason) finishReason = choice.finish_reason;
        for (const delta of choice.delta?.tool_calls ?? []) {
          const known = calls.get(delta.index) ?? { id: delta.id ?? '', type: 'function' as const, function: { name: '', arguments: '' } };
          if (delta.id) known.id = delta.id;
          if (delta.function?.name) known.function.name += delta.function.name;
          if (delta.function?.arguments) known.function.arguments += delta.function.arguments;
          calls.set(delta.index, known);
        }
        const piece = choice.delta?.content;
        if (piece) {
          text += piece;
          const safe = redaction.push(piece);
          if (safe) yield { type: 'delta', text: safe };
        }
      }
    } catch (error) {
      throw mapProviderError(error, this.settings.timeoutMs, this.redactor);
    }
    const rest = redaction.flush();
    if (rest) yield { type: 'delta', text: rest };
    const toolCalls = [...calls.values()];
    yield {
      type: 'done',
      finishReason,
      usage,
      message: this.redactor.redact({ role: 'assistant', content: text || null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) }),
    };
  }

  async embed(model: string, input: string[], signal: AbortSignal): Promise<EmbedOutcome> {
    try {
      const answer = checkEmbeddings(await this.client.embeddings.create({ model, input, encoding_format: 'float' }, { signal }), input.length);
      const ordered = [...answer.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      return { embeddings: ordered, usage: usageOf(answer.usage?.prompt_tokens ?? 0, 0) };
    } catch (error) {
      throw mapProviderError(error, this.settings.timeoutMs, this.redactor);
    }
  }
}
