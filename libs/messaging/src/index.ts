// Decorator metadata is recorded only if this is loaded before any decorated class is evaluated.
import 'reflect-metadata';
export * from './envelope.js';
export * from './bus.js';
export * from './bus.errors.js';
export * from './downstream.js';
export * from './nats.errors.js';
export * from './contracts/index.js';
export * from './jetstream/work-queue.js';
export * from './jetstream/queue-consumer.js';
export * from './jetstream/namespace-streams.js';
export * from './jetstream/stream-settings.js';
export * from './messaging.module.js';
export * from './namespace.js';
export * from './namespaced-server-nats.js';
export * from './validate-payload.js';
export * from './tenant-payload.js';
export * from './references.js';
export * from './usage/usage-meter.js';
