export * from './test-database.js';
export * from './ports.js';
export * from './process.js';
export * from './platform.js';
export * from './e2e-environment.js';
export * from './http-client.js';
export * from './token-issuer.js';
export * from './tenants.js';
