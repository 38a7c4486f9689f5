// What every NestJS service is built on: the one bootstrap, the platform module (database, NATS,
// authentication), health, OpenAPI docs, the error filter and validation.
import 'reflect-metadata';
export * from './errors/all-exceptions.filter.js';
export * from './errors/validation.pipe.js';
export * from './logging/nest-logger.js';
export * from './http/json-body.interceptor.js';
export * from './http/json-body.parser.js';
export * from './http/request-context.interceptor.js';
export * from './pagination/page-query.dto.js';
export * from './health/health.registry.js';
export * from './jobs/periodic-job.js';
export * from './usage/pending-usage.js';
export * from './usage/usage-outbox.js';
export * from './usage/usage-outbox.migration.js';
export * from './usage/usage-outbox.relay.js';
export * from './usage/usage-outbox.module.js';
export * from './health/health.controller.js';
export * from './docs/openapi.js';
export * from './docs/any-json.schema.js';
export * from './docs/openapi-document.js';
export * from './docs/error-responses.js';
export * from './docs/api-tag.js';
export * from './docs/api-page-response.js';
export * from './platform/planned-routes.js';
export * from './platform/platform.tokens.js';
export * from './platform/platform.module.js';
export * from './bootstrap/preflight.js';
export * from './bootstrap/bootstrap.js';
