import type { Msg } from '@nats-io/transport-node';
import { ServerNats, type MessageHandler } from '@nestjs/microservices';
import { SpanKind, inSpan, metricsEnabled, tracingEnabled } from '@platform/common';
import { isObservable, tap } from 'rxjs';
import { handledOutcome, natsHandled } from './messaging.metrics.js';
import { currentNamespace, namespaced } from './namespace.js';
import { traceContextOf } from './trace-headers.js';

/** A subscription's pattern as declared, without this platform's namespace. */
function declaredPattern(channel: string): string {
  const current = currentNamespace();
  return current && channel.startsWith(`${current}.`) ? channel.slice(current.length + 1) : channel;
}

/**
 * The handler, timed: from the message's arrival at the handler to the end of the answer it
 * produced (a request's reply, an event handler's completion), with the outcome the RPC filter
 * answered. Nest hands errors on as the stream's error (the RemoteError the filter made).
 */
function timed(handler: MessageHandler, pattern: string): MessageHandler {
  const observed = async (data: unknown, ctx?: unknown): Promise<unknown> => {
    const startedAt = performance.now();
    let done = false;
    const end = (outcome: 'ok' | 'rejected' | 'failed') => {
      if (done) return;
      done = true;
      natsHandled(pattern, outcome, startedAt);
    };
    let result: unknown;
    try {
      result = await handler(data, ctx);
    } catch (error) {
      end(handledOutcome(error));
      throw error;
    }
    if (!isObservable(result)) {
      end('ok');
      return result;
    }
    return result.pipe(tap({ error: (error: unknown) => end(handledOutcome(error)), complete: () => end('ok'), unsubscribe: () => end('ok') }));
  };
  // Nest reads these off the handler (event or request, extras, the chain of event handlers).
  return Object.assign(observed, handler) as MessageHandler;
}

/**
 * The NestJS NATS server with its subscriptions in the namespace; handlers keep their plain
 * patterns. With tracing on, each message is handled in a span continuing the sender's trace;
 * with metrics on, each is timed by its subscription's pattern (nats_handled_duration_seconds).
 */
export class NamespacedServerNats extends ServerNats {
  private readonly timedHandlers = new Map<MessageHandler, MessageHandler>();

  override normalizePattern(pattern: Parameters<ServerNats['normalizePattern']>[0]): string {
    return namespaced(super.normalizePattern(pattern));
  }

  override getHandlerByPattern(pattern: string): MessageHandler | null {
    const handler = super.getHandlerByPattern(pattern);
    if (!handler || !metricsEnabled()) return handler;
    let wrapped = this.timedHandlers.get(handler);
    if (!wrapped) this.timedHandlers.set(handler, (wrapped = timed(handler, declaredPattern(pattern))));
    return wrapped;
  }

  override handleMessage(channel: string, natsMsg: Msg): Promise<unknown> {
    if (!tracingEnabled()) return super.handleMessage(channel, natsMsg);
    const subject = declaredPattern(channel);
    const kind = natsMsg.reply ? SpanKind.SERVER : SpanKind.CONSUMER;
    const attributes = () => ({ 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': 'process' });
    return inSpan(`${subject} process`, kind, attributes, () => super.handleMessage(channel, natsMsg), traceContextOf(natsMsg.headers));
  }
}
