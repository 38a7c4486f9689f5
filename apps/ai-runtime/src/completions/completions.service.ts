import { Inject, Injectable, Logger } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatResult,
  type EmbeddingsRequest,
  type EmbeddingsResult,
  type GenerateRequest,
  type GenerateResult,
  type TokenUsage,
} from '@platform/messaging';
import { UsageOutbox } from '@platform/service';
import { AI_CONFIG, type AiConfig } from '../config/ai.config.js';
import { LOCAL_EMBEDDING_MODEL } from '../models/local/local.provider.js';
import { ModelRouter } from '../models/model-router.js';
import type { ChatCall, StreamEvent } from '../models/provider.js';
import { ProviderTimeoutError } from '../models/provider.errors.js';

/** Who is calling: the tenant context, and the key's mode for metering. */
export type Caller = TenantContext & { keyMode?: 'live' | 'test' };

/** Generate, chat (whole or streamed) and embeddings on any configured model, each metered as `ai_tokens`. */
@Injectable()
export class CompletionsService {
  private readonly logger = new Logger(CompletionsService.name);

  constructor(
    private readonly router: ModelRouter,
    private readonly usage: UsageOutbox,
    @Inject(AI_CONFIG) private readonly config: AiConfig,
  ) {}

  generateCall(req: GenerateRequest): ChatCall {
    const messages: ChatMessage[] = [];
    if (req.system) messages.push({ role: 'system', content: req.system });
    messages.push({ role: 'user', content: req.prompt });
    return { model: req.model, messages, maxTokens: req.maxTokens, temperature: req.temperature, responseFormat: req.responseFormat };
  }

  chatCall(req: ChatRequest): ChatCall {
    return {
      model: req.model,
      messages: req.messages,
      tools: req.tools,
      maxTokens: req.maxTokens,
      temperature: req.temperature,
      responseFormat: req.responseFormat,
    };
  }

  async generate(caller: Caller, req: GenerateRequest): Promise<GenerateResult> {
    const result = await this.chat(caller, this.generateCall(req));
    return { model: result.model, text: result.message.content ?? '', finish_reason: result.finish_reason, usage: result.usage };
  }

  async chat(caller: Caller, call: ChatCall): Promise<ChatResult> {
    const resolved = await this.router.resolve(caller, call.model, 'chat');
    const outcome = await this.withDeadline((signal) => resolved.provider.chat({ ...call, model: resolved.model }, signal));
    this.meterUsage(caller, outcome.usage);
    return { model: resolved.id, message: outcome.message, finish_reason: outcome.finishReason, usage: outcome.usage };
  }

  /** Resolves the model first (so an unknown one is a 400 before any byte is streamed), then streams. */
  async stream(caller: Caller, call: ChatCall): Promise<{ model: string; events: AsyncIterable<StreamEvent> }> {
    const resolved = await this.router.resolve(caller, call.model, 'chat');
    const signal = AbortSignal.timeout(this.config.AI_PROVIDER_TIMEOUT_MS);
    const source = resolved.provider.chatStream({ ...call, model: resolved.model }, signal);
    const meter = (usage: TokenUsage) => this.meterUsage(caller, usage);
    async function* events(): AsyncIterable<StreamEvent> {
      for await (const event of source) {
        if (event.type === 'done') meter(event.usage);
        yield event;
      }
    }
    return { model: resolved.id, events: events() };
  }

  async embeddings(caller: Caller, req: EmbeddingsRequest): Promise<EmbeddingsResult> {
    const resolved = await this.router.resolve(caller, req.model ?? LOCAL_EMBEDDING_MODEL, 'embedding');
    const outcome = await this.withDeadline((signal) => resolved.provider.embed(resolved.model, req.input, signal));
    this.meterUsage(caller, outcome.usage);
    return { model: resolved.id, dimensions: outcome.embeddings[0]?.length ?? 0, embeddings: outcome.embeddings, usage: outcome.usage };
  }

  private async withDeadline<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.config.AI_PROVIDER_TIMEOUT_MS);
    try {
      return await work(signal);
    } catch (error) {
      if (signal.aborted && !(error instanceof Error && 'status' in error)) throw new ProviderTimeoutError(this.config.AI_PROVIDER_TIMEOUT_MS);
      throw error;
    }
  }

  /**
   * Metering must not fail the answer the caller already has. There is no business transaction to
   * join: the fact gets a small one of its own in the outbox before it is published, so a NATS
   * outage loses nothing; only a failed database write loses it, and is logged.
   */
  private meterUsage(caller: Caller, usage: TokenUsage): void {
    if (usage.total_tokens <= 0) return;
    this.usage
      .record(caller, { metric: 'ai_tokens', quantity: usage.total_tokens, ...(caller.keyMode ? { keyMode: caller.keyMode } : {}) })
      .catch((error: unknown) => this.logger.warn(`ai_tokens usage not recorded: ${String(error)}`));
  }
}
