import { createInbox, headers, type Msg, type MsgHdrs, type NatsConnection, type Subscription } from '@nats-io/transport-node';
import { countIo } from '@platform/common';
import { maxPayloadOf, payloadTooLarge } from './payload-limit.js';
import { withTraceHeaders } from './trace-headers.js';

/** Nobody subscribes to the subject (the server's 503 status reply). */
export class NoReplierError extends Error {
  constructor(readonly subject: string) {
    super(`no subscriber for ${subject}`);
    this.name = 'NoReplierError';
  }
}

export class ReplyTimeoutError extends Error {
  constructor(
    readonly subject: string,
    readonly timeoutMs: number,
  ) {
    super(`${subject} did not answer within ${timeoutMs} ms`);
    this.name = 'ReplyTimeoutError';
  }
}

interface Waiting {
  subject: string;
  resolve: (msg: Msg) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Request/reply over one wildcard subscription per connection, replies matched by the last token
 * of their subject: what nats.js's `request` does with its shared inbox, without the Error it
 * builds (stack trace included) for every request only to reject a promise already resolved
 * (nats-core 3.x, RequestOne.cancel). On the hot paths, a run start per webhook delivery and a
 * JetStream publish per work item or usage fact, that was 3-4 % of a service's CPU.
 */
class ReplyInbox {
  private readonly prefix = createInbox();
  private subscription?: Subscription;
  private readonly waiting = new Map<string, Waiting>();
  private sequence = 0;

  constructor(private readonly nc: NatsConnection) {
    // A closed connection answers nothing more: fail what waits now rather than at its timeout.
    void nc.closed().then(() => this.failAll(new Error('NATS connection closed')));
  }

  request(subject: string, payload: string | Uint8Array, timeoutMs: number, hdrs?: MsgHdrs): Promise<Msg> {
    this.subscription ??= this.nc.subscribe(`${this.prefix}.*`, { callback: (error, msg) => this.settle(error, msg) });
    const token = (++this.sequence).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new ReplyTimeoutError(subject, timeoutMs));
      }, timeoutMs);
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(subject, payload, { reply: `${this.prefix}.${token}`, ...(hdrs ? { headers: hdrs } : {}) });
      } catch (error) {
        clearTimeout(timer);
        this.waiting.delete(token);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private settle(error: Error | null, msg: Msg): void {
    if (error) {
      this.subscription = undefined;
      this.failAll(error);
      return;
    }
    const token = msg.subject.slice(this.prefix.length + 1);
    const waiting = this.waiting.get(token);
    if (!waiting) return;
    this.waiting.delete(token);
    clearTimeout(waiting.timer);
    if (msg.data.length === 0 && msg.headers?.code === 503) waiting.reject(new NoReplierError(waiting.subject));
    else waiting.resolve(msg);
  }

  private failAll(error: Error): void {
    for (const waiting of this.waiting.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(error);
    }
    this.waiting.clear();
  }
}

const inboxes = new WeakMap<NatsConnection, ReplyInbox>();

/** The connection's reply inbox (made on first use). */
function inboxOf(nc: NatsConnection): ReplyInbox {
  let inbox = inboxes.get(nc);
  if (!inbox) {
    inbox = new ReplyInbox(nc);
    inboxes.set(nc, inbox);
  }
  return inbox;
}

/**
 * A core NATS request through the connection's reply inbox. `requestId` (the envelope's) is the
 * request it is counted for when the IO counters are on; by default the one being handled.
 */
export function request(
  nc: NatsConnection,
  subject: string,
  payload: string | Uint8Array,
  timeoutMs: number,
  hdrs?: MsgHdrs,
  requestId?: string,
): Promise<Msg> {
  countIo('nats.requests', 1, requestId);
  return inboxOf(nc).request(subject, payload, timeoutMs, hdrs);
}

/**
 * The stream answered a publish with an error: `status` 4xx refuses this message (over the
 * stream's max_msg_size), 503 is the stream's own trouble (storage full, no quorum).
 */
export class JetStreamRefusal extends Error {
  constructor(
    readonly subject: string,
    description: string,
    readonly status: number | undefined,
  ) {
    super(`JetStream refused ${subject}: ${description} (${status ?? '?'})`);
    this.name = 'JetStreamRefusal';
  }
}

const JS_PUBLISH_TIMEOUT_MS = 5000;
const decoder = new TextDecoder();

/** What the headers weigh on the wire, as the client counts them against max_payload (`NATS/1.0`, a line per value, a blank line). */
function headerBytes(hdrs: MsgHdrs | undefined): number {
  if (!hdrs) return 0;
  let bytes = 12;
  for (const key of hdrs.keys()) for (const value of hdrs.values(key)) bytes += Buffer.byteLength(key) + Buffer.byteLength(value) + 4;
  return bytes;
}

/**
 * A JetStream publish: resolved once a stream capturing the subject has stored the message (its
 * ack), refused when none does or the stream says no. `msgId` (Nats-Msg-Id) makes a repeat within
 * the stream's duplicate window a no-op. `requestId` as for `request`. With tracing on, the
 * message carries the trace context, so whoever consumes it continues the trace.
 */
export async function publishDurably(nc: NatsConnection, subject: string, payload: string, msgId?: string, requestId?: string): Promise<void> {
  let hdrs: MsgHdrs | undefined;
  if (msgId) {
    hdrs = headers();
    hdrs.set('Nats-Msg-Id', msgId);
  }
  hdrs = withTraceHeaders(hdrs);
  // Too large for any server of this connection: refused as the Bus refuses a request (413), so an
  // outbox can tell it from an outage and record it at once instead of trying it again forever.
  const bytes = Buffer.byteLength(payload) + headerBytes(hdrs);
  const maxPayload = maxPayloadOf(nc);
  if (bytes > maxPayload) throw payloadTooLarge(subject, 'message', bytes, maxPayload);
  let reply: Msg;
  countIo('js.publishes', 1, requestId);
  try {
    reply = await inboxOf(nc).request(subject, payload, JS_PUBLISH_TIMEOUT_MS, hdrs);
  } catch (error) {
    if (error instanceof NoReplierError) throw new Error(`no JetStream stream captures ${subject}`, { cause: error });
    throw error;
  }
  const ack = JSON.parse(decoder.decode(reply.data)) as { stream?: string; error?: { code?: number; description?: string } };
  if (ack.error) throw new JetStreamRefusal(subject, ack.error.description ?? 'error', ack.error.code);
  if (!ack.stream) throw new Error(`JetStream sent no valid ack for ${subject}`);
}
