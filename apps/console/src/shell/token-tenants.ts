import { decodeJwt } from 'jose';

/**
 * The tenants a token may act for (`authorized_tenants`), for the tenant picker and the header's
 * tenant menu. Read, not verified: the API verifies the token on every call and refuses a tenant
 * it does not authorize. Apart from oidc.ts so that the first load needs only jose's decoder.
 */
export function authorizedTenants(token: string): string[] {
  try {
    const tenants = decodeJwt(token).authorized_tenants;
    return Array.isArray(tenants) ? tenants.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return []; // not a JWT the console can read: no switch offered, the API still decides
  }
}
