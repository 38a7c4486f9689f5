import type { ChatMessage } from '@platform/messaging';
import type { ChatCall, ChatOutcome, EmbedOutcome, LlmProvider, StreamEvent } from '../provider.js';
import { usageOf } from '../provider.js';
import { extractiveSummary } from './extractive.js';
import { hashEmbedding } from './hash-embedder.js';
import { estimateTokens } from './text.js';

export const LOCAL_PROVIDER = 'local';
export const LOCAL_CHAT_MODEL = 'local/extractive-summary';
export const LOCAL_EMBEDDING_MODEL = 'local/hash-embedding-384';

function textOf(message: ChatMessage): string {
  return message.content ?? '';
}

/**
 * The built-in provider: works with no network and no configuration. Its chat model answers with
 * an extractive summary of the conversation (marked as such), its embedding model is the
 * feature-hashing embedding. Token counts are estimates (about four characters a token).
 */
export class LocalProvider implements LlmProvider {
  chat(call: ChatCall): Promise<ChatOutcome> {
    const input = call.messages
      .filter((m) => m.role !== 'system')
      .map(textOf)
      .join('\n\n');
    const lastUser = [...call.messages].reverse().find((m) => m.role === 'user');
    const focus = lastUser
      ? (textOf(lastUser)
          .split(/\n/)
          .find((line) => line.trim()) ?? '')
      : '';
    const maxChars = call.maxTokens ? Math.max(40, call.maxTokens * 4) : 1200;
    let text = extractiveSummary(input, focus, 3, maxChars);
    if (call.responseFormat === 'json') text = JSON.stringify({ summary: text });
    const prompt = call.messages.reduce((sum, m) => sum + estimateTokens(textOf(m)), 0);
    return Promise.resolve({ message: { role: 'assistant', content: text }, finishReason: 'stop', usage: usageOf(prompt, estimateTokens(text)) });
  }

  async *chatStream(call: ChatCall): AsyncIterable<StreamEvent> {
    const outcome = await this.chat(call);
    const text = outcome.message.content ?? '';
    // Word by word, like a model's tokens, so clients see the same stream shape as from a real provider.
    for (const piece of text.match(/\S+\s*/g) ?? []) yield { type: 'delta', text: piece };
    yield { type: 'done', finishReason: outcome.finishReason, usage: outcome.usage, message: outcome.message };
  }

  embed(_model: string, input: string[]): Promise<EmbedOutcome> {
    const tokens = input.reduce((sum, text) => sum + estimateTokens(text), 0);
    return Promise.resolve({ embeddings: input.map(hashEmbedding), usage: usageOf(tokens, 0) });
  }
}
