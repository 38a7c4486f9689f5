import { randomUUID } from 'node:crypto';
import { currentRequestContext, isUuid } from '@platform/common';

/**
 * Every message carries who asked, for which tenant, and the request it belongs to, so the
 * callee can open its own tenant transaction and logs on both sides share one request id.
 */
export interface MessageContext {
  requestId: string;
  /** Who caused the message: a key id, a user id, or `system:<job>`. */
  actor?: string;
  tenantId?: string;
  environmentId?: string;
  scopeId?: string | null;
}

export interface Envelope<T> {
  context: MessageContext;
  data: T;
}

export function envelope<T>(context: MessageContext, data: T): Envelope<T> {
  return { context, data };
}

/** A tenant context is required by most handlers; this narrows the optional fields. */
export interface TenantMessageContext extends MessageContext {
  tenantId: string;
  environmentId: string;
}

/** The tenant a message concerns: a principal, a TenantDb context or a row's owner. */
export interface TenantRef {
  tenantId: string;
  environmentId: string;
  scopeId?: string | null;
}

export interface ContextOptions {
  /** Defaults to the actor of the request being handled. */
  actor?: string;
  /** Defaults to the id of the request being handled; a new one outside any request. */
  requestId?: string;
}

/**
 * The one way to address a message: the tenant it concerns (none for tenant-less subjects such
 * as key verification) and the request and actor it belongs to. The request id and actor come
 * from the request or message being handled unless given, so a request can be followed from
 * the gateway through every message it causes.
 */
export function messageContext(tenant?: TenantRef | null, options: ContextOptions = {}): MessageContext {
  const current = currentRequestContext();
  const context: MessageContext = { requestId: options.requestId ?? current?.requestId ?? randomUUID() };
  const actor = options.actor ?? current?.actor;
  if (actor !== undefined) context.actor = actor;
  if (tenant) {
    context.tenantId = tenant.tenantId;
    context.environmentId = tenant.environmentId;
    context.scopeId = tenant.scopeId ?? null;
  }
  return context;
}

export function hasTenant(context: MessageContext): context is TenantMessageContext {
  return isUuid(context.tenantId) && isUuid(context.environmentId) && (context.scopeId === undefined || context.scopeId === null || isUuid(context.scopeId));
}
