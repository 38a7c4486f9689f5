export type PrincipalKind = 'user' | 'tenant_key' | 'customer_key';

/** Who is calling, for which tenant, environment and customer scope, with which scopes. */
export interface Principal {
  tenantId: string;
  environmentId: string;
  /** Customer scope: set for customer keys, and for tenant keys narrowed with X-Scope-Key. */
  scopeId: string | null;
  kind: PrincipalKind;
  keyMode?: 'live' | 'test';
  scopes: string[];
  /** Key id for API keys, user id (JWT `sub`) for users. */
  subject: string;
  keyName?: string;
  email?: string;
  tenants?: string[];
}

export function hasScopes(principal: Pick<Principal, 'scopes'>, required: readonly string[]): boolean {
  if (principal.scopes.includes('*')) return true;
  return required.every((scope) => principal.scopes.includes(scope));
}
