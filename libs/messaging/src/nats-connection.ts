/** Injection token of the service's one NATS connection. */
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
