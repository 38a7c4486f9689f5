// Test helpers. The process runner and the migrations registry they use live in @platform/launcher.
export * from './test-database.js';
export * from './e2e-environment.js';
export * from './http-client.js';
export * from './token-issuer.js';
export * from './tenants.js';
export * from './nats-namespace.js';
export { REPO_ROOT, freePort, serviceEntry, startPlatform, startProcess, type ManagedProcess, type RunningPlatform } from '@platform/launcher';
export * from './e2e-processes.js';
export * from './waiting.js';
export * from './secret-watch.js';
export * from './io-counters.js';
export * from './store-harness.js';
export * from './column-vocabulary.js';
export * from './error-answers.js';
export * from './otlp-receiver.js';
