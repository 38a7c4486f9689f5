import { errorMessage } from '@platform/common';
import { BusError } from './bus.errors.js';
import { JetStreamRefusal } from './reply-inbox.js';

/**
 * Why a durable publish (enqueueWork, publishDurably) can never succeed as it is: the message is
 * larger than NATS carries (413, refused before it is sent), or the stream refused this message
 * with a 4xx. Undefined for what may pass on a later try (NATS down, no stream yet, a time-out, a
 * 503 from JetStream): an outbox records the first kind at once and retries the second.
 * The reason is short and never holds the message itself.
 */
export function publishRefusal(error: unknown): string | undefined {
  if (error instanceof BusError && error.code === 'too_large') return error.message;
  if (error instanceof JetStreamRefusal && error.status !== undefined && error.status >= 400 && error.status < 500) return error.message;
  return undefined;
}

/** The error an outbox keeps in its row: enough to tell the cause, never the message's data. */
const RECORDED_ERROR_LENGTH = 300;

/** A failed durable publish as an outbox records it: the reason, and whether it is final (publishRefusal) or may pass later. */
export function publishFailure(error: unknown): { error: string; permanent: boolean } {
  const refusal = publishRefusal(error);
  return { error: (refusal ?? errorMessage(error)).slice(0, RECORDED_ERROR_LENGTH), permanent: refusal !== undefined };
}
