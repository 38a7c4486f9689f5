import { describe, expect, it } from 'vitest';
import { authorizedTenants } from './token-tenants';

/** An unsigned token with these claims: the console reads claims, the API verifies signatures. */
const token = (claims: object): string =>
  ['{"alg":"none"}', JSON.stringify(claims), ''].map((part) => (part ? Buffer.from(part).toString('base64url') : '')).join('.');

describe('authorizedTenants', () => {
  it('lists the tenants of the authorized_tenants claim', () => {
    expect(authorizedTenants(token({ sub: 'u', authorized_tenants: ['t1', 't2'] }))).toEqual(['t1', 't2']);
  });

  it('ignores what is not a tenant id string, and a token without the claim offers none', () => {
    expect(authorizedTenants(token({ authorized_tenants: ['t1', 7, null] }))).toEqual(['t1']);
    expect(authorizedTenants(token({ authorized_tenants: 't1' }))).toEqual([]);
    expect(authorizedTenants(token({ sub: 'u' }))).toEqual([]);
  });

  it('offers no tenant for a value that is not a JWT, instead of breaking the header', () => {
    expect(authorizedTenants('not-a-token')).toEqual([]);
  });
});
