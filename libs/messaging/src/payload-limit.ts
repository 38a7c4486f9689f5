import type { NatsConnection } from '@nats-io/transport-node';
import { BusError } from './bus.errors.js';

/** What NATS servers take by default, for a connection that has not told its own yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;

/** The largest message the connection's server takes (its max_payload). */
export function maxPayloadOf(nc: NatsConnection): number {
  return nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
}

/**
 * The refusal of a message too large to send (the server would close the connection on it): the
 * sender's input, not an outage, so it carries the 413 a caller answers and an outbox records at once.
 */
export function payloadTooLarge(subject: string, what: 'request' | 'message', bytes: number, maxPayload: number): BusError {
  const message = `The ${what} is ${bytes} bytes, over the ${maxPayload} bytes a message may carry (NATS max_payload)`;
  return new BusError('too_large', subject, message, { code: 'input_too_large', status: 413, message });
}
