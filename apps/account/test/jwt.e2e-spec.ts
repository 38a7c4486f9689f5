import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, issueToken, withKey, type TestTenant, UNAUTHORIZED_ANSWER, FORBIDDEN_ANSWER } from '@platform/testing';

const env = e2eEnvironment();
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Record<string, unknown>>(env.gatewayUrl, path, request);
const token = (claims: Record<string, unknown>, options: Parameters<typeof issueToken>[2] = {}, kind?: Parameters<typeof issueToken>[3]) =>
  issueToken(env.jwt.signUrl, claims, { audience: env.jwt.audience, ...options }, kind);

const UNAUTHORIZED = { ...UNAUTHORIZED_ANSWER, request_id: expect.any(String) };
const FORBIDDEN = { ...FORBIDDEN_ANSWER, request_id: expect.any(String) };
const TENANT_REQUIRED = {
  error: 'Bad Request',
  code: 'bad_request',
  message: 'X-SELECTED-TENANT header is required',
  status: 400,
  request_id: expect.any(String),
};

describe('bearer JWTs end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  const user = randomUUID();
  let claims: Record<string, unknown>;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTenant(env.gatewayUrl, env.adminToken, 'jwt-a'), createTenant(env.gatewayUrl, env.adminToken, 'jwt-b')]);
    claims = { sub: user, email: 'dev@jwt.test', tenants: [a.tenant_id], authorized_tenants: [a.tenant_id] };
  });

  const asUser = (jwt: string, tenant?: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${jwt}`,
    ...(tenant ? { 'x-selected-tenant': tenant } : {}),
    ...extra,
  });

  it('accepts a valid RS256 or ES256 token for an authorized tenant, in its production environment by default', async () => {
    for (const alg of ['RS256', 'ES256'] as const) {
      const res = await gw('/account/me', { headers: asUser(await token(claims, { alg }), a.tenant_id) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        type: 'user',
        id: user,
        email: 'dev@jwt.test',
        tenants: [a.tenant_id],
        tenant_id: a.tenant_id,
        environment_id: a.production_data_plane_id,
      });
    }
  });

  it("selects the environment with X-SELECTED-ENV, and refuses another tenant's environment", async () => {
    const jwt = await token(claims);
    const sandbox = await gw('/account/me', { headers: asUser(jwt, a.tenant_id, { 'x-selected-env': a.sandbox_data_plane_id }) });
    expect(sandbox.body.environment_id).toBe(a.sandbox_data_plane_id);
    const keys = await gw('/account/api-keys', { headers: asUser(jwt, a.tenant_id, { 'x-selected-env': a.sandbox_data_plane_id }) });
    expect((keys.body.data as { mode: string }[]).every((k) => k.mode === 'test')).toBe(true);
    const foreign = await gw('/account/me', { headers: asUser(jwt, a.tenant_id, { 'x-selected-env': b.production_data_plane_id }) });
    expect({ status: foreign.status, body: foreign.body }).toEqual({ status: 403, body: FORBIDDEN });
  });

  it("answers 400 with the spec's text when X-SELECTED-TENANT is missing", async () => {
    const res = await gw('/account/me', { headers: asUser(await token(claims)) });
    expect({ status: res.status, body: res.body }).toEqual({ status: 400, body: TENANT_REQUIRED });
  });

  it('answers 403 for a tenant the token is not authorized for', async () => {
    const jwt = await token(claims);
    for (const tenant of [b.tenant_id, randomUUID(), 'not-a-uuid']) {
      const res = await gw('/account/me', { headers: asUser(jwt, tenant) });
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: FORBIDDEN });
    }
    // In `tenants` but not in `authorized_tenants` is not enough.
    const member = await token({ ...claims, tenants: [a.tenant_id, b.tenant_id] });
    expect((await gw('/account/me', { headers: asUser(member, b.tenant_id) })).status).toBe(403);
  });

  it.each([
    ['expired', () => token(claims, { expiresIn: -120 })],
    ['wrong issuer', () => token(claims, { issuer: 'https://evil.example' })],
    ['wrong audience', () => token(claims, { audience: 'someone-else' })],
    ['signed by a key not in the JWKS', () => token(claims, {}, 'foreign')],
    ['alg: none', () => token(claims, {}, 'unsigned')],
    ['issued in the future', () => token(claims, { issuedAt: Math.floor(Date.now() / 1000) + 3600, expiresIn: 7200 })],
    ['garbage', () => Promise.resolve('abc.def.ghi')],
  ])('answers 401 for a token that is %s', async (_label, make) => {
    const res = await gw('/account/me', { headers: asUser(await make(), a.tenant_id) });
    expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: UNAUTHORIZED });
  });

  it('lets a signed-in user sign up (a system route: no tenant header) and nothing else do so', async () => {
    const newcomer = await token({ sub: randomUUID(), email: `new-${Date.now()}@jwt.test` });
    const created = await gw('/account/signup', { headers: { authorization: `Bearer ${newcomer}` }, body: { tenant_name: 'Newco' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      tenant_id: expect.any(String),
      user_id: expect.any(String),
      organization_id: expect.any(String),
      production_data_plane_id: expect.any(String),
      sandbox_data_plane_id: expect.any(String),
    });
    const noEmail = await token({ sub: randomUUID() });
    expect((await gw('/account/signup', { headers: { authorization: `Bearer ${noEmail}` }, body: { tenant_name: 'X' } })).status).toBe(400);
    expect((await gw('/account/signup', { headers: withKey(a.test_key), body: { tenant_name: 'X' } })).status).toBe(401);
    expect((await gw('/account/signup', { body: { tenant_name: 'X' } })).status).toBe(401);
    // Initial tenant creation is for the platform admin only.
    expect((await gw('/account/tenants', { headers: { authorization: `Bearer ${newcomer}` }, body: { name: 'X', owner_email: 'x@y.test' } })).status).toBe(403);
    expect(
      (await gw('/account/tenants', { headers: { authorization: `Bearer ${'w'.repeat(43)}` }, body: { name: 'X', owner_email: 'x@y.test' } })).status,
    ).toBe(401);
    const bad = await gw('/account/tenants', { headers: { authorization: `Bearer ${env.adminToken}` }, body: { name: 'X', owner_email: 'not-an-email' } });
    expect(bad.status).toBe(400);
    expect((bad.body.details as { field: string }[])[0].field).toBe('owner_email');
  });
});
