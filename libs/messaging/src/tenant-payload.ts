import { createParamDecorator, type ExecutionContext, type Type } from '@nestjs/common';
import type { MessageContext, TenantMessageContext } from './envelope.js';
import { hasTenant } from './envelope.js';
import { rpcError, validatePayload } from './validate-payload.js';

/** The tenant a message handler works in: what TenantDb.run takes. */
export interface MessageTenant {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
}

/** A validated message of a tenant subject. */
export interface TenantMessage<T> {
  tenant: MessageTenant;
  context: TenantMessageContext;
  body: T;
}

/** A validated message of a subject that needs no tenant (key verification, environment lookup). */
export interface SystemMessage<T> {
  context: MessageContext;
  body: T;
}

function contextOf(message: unknown): MessageContext {
  const context = (message as { context?: unknown } | null)?.context;
  if (!context || typeof context !== 'object' || typeof (context as MessageContext).requestId !== 'string') {
    throw rpcError(400, 'invalid_envelope', 'The message is not an envelope { context: { requestId, … }, data }');
  }
  return context as MessageContext;
}

/** Reads a tenant message: the envelope must name a tenant, and the body must pass `type`'s rules. */
export function readTenantMessage<T extends object>(type: Type<T>, message: unknown): TenantMessage<T> {
  const context = contextOf(message);
  if (!hasTenant(context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
  const body = validatePayload(type, (message as { data?: unknown }).data);
  return { tenant: { tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null }, context, body };
}

export function readSystemMessage<T extends object>(type: Type<T>, message: unknown): SystemMessage<T> {
  const context = contextOf(message);
  return { context, body: validatePayload(type, (message as { data?: unknown }).data) };
}

/**
 * `@TenantPayload(CreateCustomerPayload) message: TenantMessage<CreateCustomerPayload>`: the
 * envelope is checked, a message without a tenant is refused (400 `tenant_required`), and the
 * body is validated against the subject's one payload class from libs/messaging.
 */
export const TenantPayload = createParamDecorator((type: Type<object>, ctx: ExecutionContext) => readTenantMessage(type, ctx.switchToRpc().getData()));

/** The same for subjects that carry no tenant. */
export const SystemPayload = createParamDecorator((type: Type<object>, ctx: ExecutionContext) => readSystemMessage(type, ctx.switchToRpc().getData()));
