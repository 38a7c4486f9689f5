import { randomUUID } from 'node:crypto';
import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { SpanKind, countIo, inSpan, tracingEnabled } from '@platform/common';
import type { EventMap, EventSubject, RequestMap, RequestSubject } from './contracts/index.js';
import { BusError, isRemoteError } from './bus.errors.js';
import { envelope, type Envelope, type MessageContext } from './envelope.js';
import { namespaced } from './namespace.js';
import { NoReplierError, ReplyTimeoutError, publishDurably, request } from './reply-inbox.js';
import { natsRequestDone, requestOutcome } from './messaging.metrics.js';
import { maxPayloadOf, payloadTooLarge } from './payload-limit.js';
import { withTraceHeaders } from './trace-headers.js';

export interface RequestOptions {
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 5000;

/**
 * Typed request/reply and events over NATS.
 *
 * Packets use the NestJS NATS transport's JSON format (`{ pattern, data, id }` in,
 * `{ id, response | err, isDisposed }` out), so callees are ordinary `@MessagePattern` and
 * `@EventPattern` handlers. Requests go through the connection's shared reply inbox (reply-inbox.ts) rather than
 * a subscription per call, which keeps hot calls (key verification) to one round trip.
 */
export class Bus {
  private readonly decoder = new TextDecoder();

  constructor(readonly connection: NatsConnection) {}

  /** The largest message the server takes (its max_payload): a larger request is refused before it is sent. */
  get maxPayload(): number {
    return maxPayloadOf(this.connection);
  }

  request<S extends RequestSubject>(
    subject: S,
    data: RequestMap[S]['request'],
    context: MessageContext,
    options: RequestOptions = {},
  ): Promise<RequestMap[S]['response']> {
    if (!tracingEnabled()) return this.send(subject, data, context, options);
    const attributes = () => ({ 'messaging.system': 'nats', 'messaging.destination.name': subject, 'messaging.operation.type': 'send' });
    return inSpan(`${subject} request`, SpanKind.CLIENT, attributes, () => this.send(subject, data, context, options));
  }

  private async send<S extends RequestSubject>(
    subject: S,
    data: RequestMap[S]['request'],
    context: MessageContext,
    options: RequestOptions,
  ): Promise<RequestMap[S]['response']> {
    const packet = JSON.stringify({ pattern: subject, data: envelope(context, data), id: randomUUID() });
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const started = performance.now();
    const bytes = Buffer.byteLength(packet);
    const maxPayload = this.maxPayload;
    if (bytes > maxPayload) {
      const failure = payloadTooLarge(subject, 'request', bytes, maxPayload);
      natsRequestDone(subject, failure.code, started);
      throw failure;
    }
    let reply;
    try {
      reply = await request(this.connection, namespaced(subject), packet, timeout, withTraceHeaders(), context.requestId);
    } catch (error) {
      const failure = this.transportError(subject, error, timeout);
      natsRequestDone(subject, failure.code, started);
      throw failure;
    }
    const body = JSON.parse(this.decoder.decode(reply.data)) as { err?: unknown; response?: unknown };
    if (body.err !== undefined && body.err !== null) {
      const remote = isRemoteError(body.err)
        ? body.err
        : { code: 'internal', status: 500, message: typeof body.err === 'string' ? body.err : 'Remote handler failed' };
      const failure = new BusError('remote', subject, remote.message, remote);
      natsRequestDone(subject, requestOutcome(failure), started);
      throw failure;
    }
    natsRequestDone(subject, 'ok', started);
    return body.response as RequestMap[S]['response'];
  }

  /** Fire-and-forget event; handlers in a queue group get it once per service. */
  emit<S extends EventSubject>(subject: S, data: EventMap[S], context: MessageContext): void {
    countIo('nats.publishes', 1, context.requestId);
    const hdrs = withTraceHeaders();
    this.connection.publish(namespaced(subject), JSON.stringify({ pattern: subject, data: envelope(context, data) }), hdrs ? { headers: hdrs } : undefined);
  }

  /**
   * The same event, published through JetStream: resolved once a stream capturing the subject has
   * stored it, refused when none does. `messageId` makes a repeat (a retry after a lost
   * acknowledgement) a no-op within the stream's duplicate window.
   */
  async emitDurably<S extends EventSubject>(subject: S, data: EventMap[S], context: MessageContext, messageId: string): Promise<void> {
    const packet = JSON.stringify({ pattern: subject, data: envelope(context, data) });
    await publishDurably(this.connection, namespaced(subject), packet, messageId, context.requestId);
  }

  /**
   * Every replica of every service receives the event (no queue group): for facts each process
   * must act on itself, such as dropping a cached key verification.
   */
  subscribeAll<S extends EventSubject>(subject: S, handler: (event: Envelope<EventMap[S]>) => void): Subscription {
    return this.connection.subscribe(namespaced(subject), {
      callback: (err, msg) => {
        if (err) return;
        try {
          const packet = JSON.parse(this.decoder.decode(msg.data)) as { data: Envelope<EventMap[S]> };
          countIo('nats.received', 1, packet.data?.context?.requestId);
          handler(packet.data);
        } catch {
          // A malformed event must not kill the subscription; the publisher is at fault.
        }
      },
    });
  }

  private transportError(subject: string, error: unknown, timeout: number): BusError {
    if (error instanceof NoReplierError) return new BusError('unavailable', subject, `No service answers ${subject}`);
    if (error instanceof ReplyTimeoutError) return new BusError('timeout', subject, `${subject} did not answer within ${timeout} ms`);
    return new BusError('unavailable', subject, `${subject} failed: ${(error as Error).message}`);
  }
}
