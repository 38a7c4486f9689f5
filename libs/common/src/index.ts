// The leaf library: what every process needs, the gateway included, with no NestJS, database or
// NATS dependency. NestJS services build on @platform/service.
import 'reflect-metadata';
export * from './catalog/services.catalog.js';
export * from './config/config.loader.js';
export * from './config/service.config.js';
export * from './config/master-key.js';
export * from './crypto/master-key-ring.js';
export * from './crypto/sealed-box.js';
export * from './crypto/sealed-records.js';
export * from './ids.js';
export * from './context/request-context.js';
export * from './errors/error-body.js';
export * from './errors/app.errors.js';
export * from './errors/validation.js';
export * from './logging/logger.js';
export * from './http/request-id.js';
export * from './http/access-log.js';
export * from './pagination/pagination.js';
export * from './counters/refreshing-cache.js';
export * from './counters/redis-url.js';
export * from './io/io-counters.js';
export * from './json/json-depth.js';
export * from './json/storable-text.js';
export * from './health/component-health.schema.js';
export * from './outbound/address-policy.js';
export * from './outbound/send-request.js';
export * from './outbound/public-fetch.js';
export * from './secrets/secret-redactor.js';
