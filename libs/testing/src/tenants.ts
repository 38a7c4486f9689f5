import { call } from './http-client.js';

export interface TestTenant {
  tenant_id: string;
  user_id: string;
  organization_id: string;
  production_data_plane_id: string;
  sandbox_data_plane_id: string;
  live_key: string;
  test_key: string;
}

/** A fresh tenant for a test, made through the system route as a platform admin would. */
export async function createTenant(gatewayUrl: string, adminToken: string, name = `tenant-${Math.random().toString(36).slice(2, 8)}`): Promise<TestTenant> {
  const res = await call<TestTenant>(gatewayUrl, '/account/tenants', {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: { name, owner_email: `owner+${name}@example.test` },
  });
  if (res.status !== 201) throw new Error(`tenant creation failed: ${res.status} ${res.text}`);
  return res.body;
}

export const withKey = (key: string, extra: Record<string, string> = {}) => ({ 'x-api-key': key, ...extra });
