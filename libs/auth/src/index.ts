// Decorator metadata is recorded only if this is loaded before any decorated class is evaluated.
import 'reflect-metadata';
export * from './principal.js';
export * from './auth.errors.js';
export * from './auth.decorators.js';
export * from './authenticator.js';
export * from './tenant.guard.js';
export * from './auth.module.js';
