/**
 * How the platform's JetStream streams are made: replicas and the storage limit of each stream.
 * Set once at start-up from NATS_STREAM_REPLICAS and NATS_STREAM_MAX_BYTES (bootstrapService),
 * like the namespace. They apply when a stream is created: a stream that exists keeps its own
 * replicas and limits, so an operator's `nats stream edit` is never undone by a start-up.
 */
export interface StreamSettings {
  /** Copies of each stream in a NATS cluster (1 on a single server; 3 in a production cluster). */
  replicas: number;
  /** Largest size of each stream in bytes; -1: unlimited. */
  maxBytes: number;
}

const DEFAULT_SETTINGS: StreamSettings = { replicas: 1, maxBytes: -1 };

let current: StreamSettings = DEFAULT_SETTINGS;

export function configureStreams(settings: Partial<StreamSettings>): void {
  const next = { ...DEFAULT_SETTINGS, ...settings };
  if (!Number.isInteger(next.replicas) || next.replicas < 1 || next.replicas > 5) throw new Error(`NATS_STREAM_REPLICAS must be 1 to 5 (got ${next.replicas})`);
  if (!Number.isInteger(next.maxBytes) || (next.maxBytes < 1 && next.maxBytes !== -1))
    throw new Error(`NATS_STREAM_MAX_BYTES must be -1 or a positive integer (got ${next.maxBytes})`);
  current = next;
}

export function streamSettings(): StreamSettings {
  return current;
}
