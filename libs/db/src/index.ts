// Decorator metadata is recorded only if this is loaded before any decorated class is evaluated.
import 'reflect-metadata';
export * from './database.config.js';
export * from './data-source.factory.js';
export * from './tenant-db.js';
export * from './system-db.js';
export * from './rls.js';
export * from './sql-filter.js';
export * from './prepared.js';
export * from './tenant-functions.js';
export * from './connection-errors.js';
export * from './database.setup.js';
export * from './tenant-batcher.js';
export * from './sql-statements.js';
export * from './database-functions.js';
