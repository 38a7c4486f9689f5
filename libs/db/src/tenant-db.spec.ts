import { describe, expect, it } from '@jest/globals';
import { TenantContextError, assertTenantContext } from './tenant-db.js';

const TENANT = '3f2b9c1e-8d4a-4f6b-9a7e-1c2d3e4f5a6b';
const ENV = 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d';
const SCOPE = 'B1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D';

function rejection(run: () => void): TenantContextError {
  try {
    run();
  } catch (error) {
    if (error instanceof TenantContextError) return error;
    throw error;
  }
  throw new Error('expected a TenantContextError');
}

describe('assertTenantContext', () => {
  it('accepts UUIDs with a scope, a null scope or no scope', () => {
    expect(() => assertTenantContext({ tenantId: TENANT, environmentId: ENV, scopeId: SCOPE })).not.toThrow();
    expect(() => assertTenantContext({ tenantId: TENANT, environmentId: ENV, scopeId: null })).not.toThrow();
    expect(() => assertTenantContext({ tenantId: TENANT, environmentId: ENV })).not.toThrow();
  });

  it.each([
    ['tenantId', { tenantId: 'tenant-1', environmentId: ENV }],
    ['tenantId', { tenantId: `${TENANT}'; select 1; --`, environmentId: ENV }],
    ['tenantId', { tenantId: '', environmentId: ENV }],
    ['environmentId', { tenantId: TENANT, environmentId: 'prod' }],
    ['environmentId', { tenantId: TENANT, environmentId: ENV.replace(/-/g, '') }],
    ['scopeId', { tenantId: TENANT, environmentId: ENV, scopeId: 'customer-9' }],
    ['scopeId', { tenantId: TENANT, environmentId: ENV, scopeId: '' }],
  ])('rejects a non-UUID %s', (field, ctx) => {
    const error = rejection(() => assertTenantContext(ctx));
    expect(error.name).toBe('TenantContextError');
    expect(error.message).toBe(`Tenant context ${field} is not a UUID`);
  });
});
