import type { NatsConnection } from '@nats-io/transport-node';
import { nanos } from '@nats-io/transport-node';
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  JetStreamApiError,
  RetentionPolicy,
  StorageType,
  jetstream,
  jetstreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import type { ClassConstructor } from 'class-transformer';
import { SpanKind, countIo, inSpan, runInRequestContext, tracingEnabled } from '@platform/common';
import { messageContext, type Envelope, type MessageContext } from '../envelope.js';
import { currentNamespace, namespaced, streamPrefix } from '../namespace.js';
import { validatePayload } from '../validate-payload.js';
import { publishDurably } from '../reply-inbox.js';
import { streamSettings } from './stream-settings.js';
import { queueLabel, watchConsumer, workItemDone } from '../messaging.metrics.js';
import { traceContextOf } from '../trace-headers.js';

export interface WorkQueueSpec {
  /** Stream name, e.g. `RUN_WORK`. */
  stream: string;
  /** Subjects the stream captures, e.g. `['run.work.>']`. */
  subjects: string[];
  /** Durable pull consumer shared by every replica of the worker. */
  consumer: string;
  /** Deliveries before a message goes to the dead letter subject. */
  maxDeliver?: number;
  /** How long a worker may hold a message before it is redelivered (a crashed worker's lease). */
  ackWaitMs?: number;
  /** Where exhausted messages are published; a separate stream keeps them. */
  deadLetterSubject: string;
  /** The items' payload class: an item that fails its rules goes to the dead letter stream at once. */
  payload?: ClassConstructor<object>;
}

/** The queue's stream and subjects inside the configured namespace; idempotent. */
export function namespacedQueue(spec: WorkQueueSpec): WorkQueueSpec {
  const current = currentNamespace();
  if (!current) return spec;
  const prefix = streamPrefix(current);
  if (spec.stream.startsWith(prefix)) return spec;
  const stream = `${prefix}${spec.stream}`;
  return { ...spec, stream, subjects: spec.subjects.map(namespaced), deadLetterSubject: namespaced(spec.deadLetterSubject) };
}

export type WorkResult = { ack: true } | { retryInMs: number };

export interface WorkItem<T> {
  subject: string;
  data: T;
  /** Who enqueued it, for which tenant and request; the handler runs in that request's context. */
  context: MessageContext;
  /** 1 on first delivery. */
  deliveryCount: number;
  /** Extends the lease of a long-running item. */
  working(): void;
}

export type WorkHandler<T> = (item: WorkItem<T>) => WorkResult | Promise<WorkResult>;

const DEFAULTS = { maxDeliver: 5, ackWaitMs: 30_000 };

/** Exponential backoff with full jitter, capped: the delay before redelivering a failed item. */
export function retryDelayMs(deliveryCount: number, baseMs = 500, capMs = 60_000): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, deliveryCount - 1));
  return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}

/**
 * Creates the work-queue stream, its dead letter stream and the durable consumer when missing.
 * A new stream gets the configured replicas and size limit (configureStreams); an existing one is
 * left as it is (its replicas, limits and age, whatever an operator set), except that subjects a
 * newer version of the queue captures are added. Replicas (and the two services on either side of
 * a queue) start at once: one that loses the race to create something sees it exist on its second
 * pass.
 */
export async function ensureWorkQueue(nc: NatsConnection, queue: WorkQueueSpec): Promise<void> {
  await ensureWorkQueueOnce(nc, queue).catch(() => ensureWorkQueueOnce(nc, queue));
}

async function ensureWorkQueueOnce(nc: NatsConnection, queue: WorkQueueSpec): Promise<void> {
  const spec = namespacedQueue(queue);
  const jsm = await jetstreamManager(nc);
  const maxDeliver = spec.maxDeliver ?? DEFAULTS.maxDeliver;
  const ackWait = nanos(spec.ackWaitMs ?? DEFAULTS.ackWaitMs);
  const { replicas, maxBytes } = streamSettings();
  await ensureStream(jsm, {
    name: spec.stream,
    subjects: spec.subjects,
    retention: RetentionPolicy.Workqueue,
    storage: StorageType.File,
    num_replicas: replicas,
    max_bytes: maxBytes,
    // A full queue refuses new work (the publisher's row stays, and its reconciler publishes it
    // again later) rather than dropping the oldest work, which nothing would notice.
    discard: DiscardPolicy.New,
  });
  await ensureStream(jsm, {
    name: `${spec.stream}_DEAD`,
    subjects: [spec.deadLetterSubject],
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    num_replicas: replicas,
    max_bytes: maxBytes,
    max_age: nanos(7 * 24 * 3600 * 1000),
  });
  const config = {
    durable_name: spec.consumer,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    max_deliver: maxDeliver,
    ack_wait: ackWait,
  };
  try {
    await jsm.consumers.info(spec.stream, spec.consumer);
    await jsm.consumers.update(spec.stream, spec.consumer, { max_deliver: maxDeliver, ack_wait: ackWait });
  } catch (error) {
    if (!(error instanceof JetStreamApiError)) throw error;
    await jsm.consumers.add(spec.stream, config);
  }
}

type StreamManager = Awaited<ReturnType<typeof jetstreamManager>>;
type StreamConfig = Parameters<StreamManager['streams']['add']>[0];

/**
 * Creates the stream with `config`, or, when it exists, only adds the subjects it lacks: the
 * update sends nothing else, so the stream's replicas, limits and age stay what they are.
 */
async function ensureStream(jsm: StreamManager, config: StreamConfig): Promise<void> {
  let existing: string[];
  try {
    existing = (await jsm.streams.info(config.name)).config.subjects ?? [];
  } catch (error) {
    if (!(error instanceof JetStreamApiError)) throw error;
    await jsm.streams.add(config);
    return;
  }
  const missing = (config.subjects ?? []).filter((subject) => !existing.includes(subject));
  if (missing.length) await jsm.streams.update(config.name, { subjects: [...existing, ...missing] });
}

/**
 * Publishes a work item in an envelope with its context (by default the current request's);
 * `msgId` makes a repeated publish (retry after a crash) a no-op.
 */
export async function enqueueWork(
  nc: NatsConnection,
  subject: string,
  data: unknown,
  msgId?: string,
  context: MessageContext = messageContext(),
): Promise<void> {
  const item: Envelope<unknown> = { context, data };
  const publish = () => publishDurably(nc, namespaced(subject), JSON.stringify(item), msgId, context.requestId);
  if (!tracingEnabled()) return publish();
  // The item carries this span's context in its headers: the worker that takes it continues the trace.
  await inSpan(`${subject} publish`, SpanKind.PRODUCER, () => ({ 'messaging.system': 'nats', 'messaging.destination.name': subject }), publish);
}

/** A malformed item is dead-lettered at once: redelivering it cannot make it valid. */
class PoisonItem extends Error {}

function readItem<T>(raw: string, spec: WorkQueueSpec): Envelope<T> {
  let parsed: Partial<Envelope<T>>;
  try {
    parsed = JSON.parse(raw) as Partial<Envelope<T>>;
  } catch {
    throw new PoisonItem('the item is not JSON');
  }
  const context = parsed?.context;
  if (!context || typeof context !== 'object' || typeof context.requestId !== 'string') throw new PoisonItem('the item is not an envelope { context, data }');
  if (!spec.payload) return parsed as Envelope<T>;
  try {
    return { context, data: validatePayload(spec.payload, parsed.data) as T };
  } catch (error) {
    const details = (error as { getError?: () => { message?: string } }).getError?.()?.message;
    throw new PoisonItem(details ?? 'the item failed validation');
  }
}

export interface Worker {
  stop(): Promise<void>;
}

/**
 * Pulls items and hands them to `handler` one batch at a time. A handler that throws gets the
 * item redelivered after a backoff; after `maxDeliver` attempts the item goes to the dead letter
 * stream with the last error, and is removed from the queue.
 */
export async function startWorker<T>(
  nc: NatsConnection,
  queue: WorkQueueSpec,
  handler: WorkHandler<T>,
  options: { concurrency?: number; onError?: (error: unknown, subject: string) => void } = {},
): Promise<Worker> {
  const spec = namespacedQueue(queue);
  const maxDeliver = spec.maxDeliver ?? DEFAULTS.maxDeliver;
  const js = jetstream(nc);
  const consumer = await js.consumers.get(spec.stream, spec.consumer);
  const label = queueLabel(spec.stream);
  const unwatch = watchConsumer(label, consumer);
  const messages = await consumer.consume({ max_messages: options.concurrency ?? 16 });
  const inFlight = new Set<Promise<void>>();
  const decoder = new TextDecoder();

  const process = async (msg: JsMsg): Promise<void> => {
    const deliveryCount = msg.info.deliveryCount;
    const startedAt = performance.now();
    // The request the item belongs to, for the IO counters (tests); background until it is read.
    let requestId: string | undefined;
    try {
      const { context, data } = readItem<T>(decoder.decode(msg.data), spec);
      requestId = context.requestId;
      countIo('js.deliveries', 1, requestId);
      const handle = () =>
        runInRequestContext({ requestId: context.requestId, actor: context.actor }, () =>
          handler({ subject: msg.subject, data, context, deliveryCount, working: () => msg.working() }),
        );
      // With tracing on, the item is handled in a span continuing the trace that enqueued it.
      const result = tracingEnabled()
        ? await inSpan(
            `${queue.consumer} process`,
            SpanKind.CONSUMER,
            () => ({
              'messaging.system': 'nats',
              'messaging.destination.name': msg.subject,
              'messaging.consumer.group.name': queue.consumer,
              'messaging.delivery_count': deliveryCount,
            }),
            handle,
            traceContextOf(msg.headers),
          )
        : await handle();
      countIo('js.acks', 1, requestId);
      workItemDone(label, 'ack' in result ? 'ack' : 'retry', deliveryCount, startedAt);
      if ('ack' in result) msg.ack();
      else msg.nak(result.retryInMs);
    } catch (error) {
      if (requestId === undefined) countIo('js.deliveries');
      countIo('js.acks', 1, requestId);
      options.onError?.(error, msg.subject);
      const final = deliveryCount >= maxDeliver || error instanceof PoisonItem;
      workItemDone(label, final ? 'dead_letter' : 'retry', deliveryCount, startedAt);
      if (final) {
        // Moved, not dropped: the dead letter stream confirms the copy before the item leaves the
        // queue (a work-queue stream keeps a terminated message, so it is acked instead).
        const reason = String((error as Error)?.message ?? error);
        try {
          countIo('js.publishes', 1, requestId);
          await js.publish(
            spec.deadLetterSubject,
            JSON.stringify({ subject: msg.subject, data: decoder.decode(msg.data), error: reason, deliveries: deliveryCount }),
          );
          msg.ack();
        } catch {
          msg.nak(retryDelayMs(deliveryCount));
        }
      } else {
        msg.nak(retryDelayMs(deliveryCount));
      }
    }
  };

  const loop = (async () => {
    for await (const msg of messages) {
      const task = process(msg).finally(() => inFlight.delete(task));
      inFlight.add(task);
    }
  })();

  return {
    async stop() {
      unwatch();
      await messages.close();
      await loop.catch(() => undefined);
      await Promise.allSettled([...inFlight]);
    },
  };
}
