import type { Response } from 'express';
import type { StreamEvent } from '../models/provider.js';

/**
 * Streams an answer as server-sent events: the first event is awaited before any header is
 * written, so a provider that fails or limits at once still gets its proper status (502, 504,
 * 429 with Retry-After). After that, each text piece is one `data:` event written as it
 * arrives; a failure mid-stream is an `error` event; the end is a `done` event with the usage,
 * then `data: [DONE]` (the OpenAI convention).
 */
export async function writeEventStream(res: Response, model: string, events: AsyncIterable<StreamEvent>): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const first = await iterator.next();
  res.status(200);
  res.setHeader('content-type', 'text/event-stream; charset=utf-8');
  res.setHeader('cache-control', 'no-cache, no-transform');
  res.setHeader('x-accel-buffering', 'no');
  res.flushHeaders();
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  const send = (payload: unknown) => res.write(`data: ${JSON.stringify(payload)}\n\n`);
  const emit = (event: StreamEvent) =>
    event.type === 'delta'
      ? send({ type: 'delta', text: event.text })
      : send({ type: 'done', model, finish_reason: event.finishReason, usage: event.usage, message: event.message });
  try {
    for (let step = first; !step.done && !closed; step = await iterator.next()) emit(step.value);
  } catch (error) {
    const status = (error as { status?: number }).status ?? 502;
    send({
      type: 'error',
      status,
      message: status >= 500 && !(error as { code?: string }).code?.startsWith('provider_') ? 'The model provider failed' : (error as Error).message,
    });
  } finally {
    if (closed) await iterator.return?.();
  }
  if (!closed) res.end('data: [DONE]\n\n');
}
