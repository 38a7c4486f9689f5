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

export function hasTenant(context: MessageContext): context is TenantMessageContext {
  return typeof context.tenantId === 'string' && typeof context.environmentId === 'string';
}
