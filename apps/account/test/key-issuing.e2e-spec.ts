import { beforeAll, describe, expect, it } from '@jest/globals';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant, FORBIDDEN_ANSWER } from '@platform/testing';

/**
 * The key-issuing rule as a matrix: whoever asks for a key value (create, rotate) gets one only
 * if every scope of that key is one of its own (`*` covers all) and, when the caller acts for a
 * customer, only a key of that customer. Every caller × target × operation × path form × data plane.
 */
const env = e2eEnvironment();
type Body = Record<string, unknown> & { key?: string; id?: string; scopes?: string[]; data?: Record<string, unknown>[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

const FORBIDDEN = { ...FORBIDDEN_ANSWER, request_id: expect.any(String) };

type Mode = 'live' | 'test';
type Customer = 'c1' | 'c2';
interface KeyShape {
  name: string;
  scopes: string[];
  customer?: Customer;
}
/** A caller: a key it is made as, and optionally an X-Scope-Key narrowing a tenant key to a customer. */
interface Caller extends KeyShape {
  narrowedTo?: Customer;
}

const CALLERS: Caller[] = [
  { name: 'a * tenant key', scopes: ['*'] },
  { name: 'an api_keys:manage tenant key', scopes: ['api_keys:manage'] },
  { name: 'an api_keys:manage + data:read tenant key', scopes: ['api_keys:manage', 'data:read'] },
  { name: 'a * tenant key narrowed to c1', scopes: ['*'], narrowedTo: 'c1' },
  { name: "c1's api_keys:manage + data:read key", scopes: ['api_keys:manage', 'data:read'], customer: 'c1' },
];

const TARGETS: KeyShape[] = [
  { name: 'a * tenant key', scopes: ['*'] },
  { name: 'a data:read tenant key', scopes: ['data:read'] },
  { name: 'a data:read + secrets:write tenant key', scopes: ['data:read', 'secrets:write'] },
  { name: "c1's data:read key", scopes: ['data:read'], customer: 'c1' },
  { name: "c1's * key", scopes: ['*'], customer: 'c1' },
  { name: "c2's data:read key", scopes: ['data:read'], customer: 'c2' },
];

const actsFor = (caller: Caller): Customer | undefined => caller.customer ?? caller.narrowedTo;
const within = (held: string[], wanted: string[]) => held.includes('*') || wanted.every((s) => held.includes(s));

/** 201 when the rule allows it; a key the caller cannot see (another customer's, the tenant's) is 404 to rotate; else 403. */
function expected(caller: Caller, target: KeyShape, op: 'create' | 'rotate'): 201 | 403 | 404 {
  const customer = actsFor(caller);
  if (op === 'rotate' && customer && target.customer !== customer) return 404;
  if (customer && target.customer !== customer) return 403;
  return within(caller.scopes, target.scopes) ? 201 : 403;
}

const OPS = ['create', 'rotate'] as const;
const FORMS = ['account', 'data-planes'] as const;
const MODES: Mode[] = ['live', 'test'];
const CASES = MODES.flatMap((mode) =>
  CALLERS.flatMap((caller) =>
    TARGETS.flatMap((target) => OPS.flatMap((op) => FORMS.map((form) => ({ mode, caller, target, op, form, status: expected(caller, target, op) })))),
  ),
);

interface Plane {
  id: string;
  owner: string;
  customers: Record<Customer, string>;
  callers: Map<string, Record<string, string>>;
}

describe('the key-issuing rule', () => {
  let tenant: TestTenant;
  const planes = {} as Record<Mode, Plane>;
  let serial = 0;

  const body = (plane: Plane, shape: KeyShape) => ({
    name: `${shape.name} #${++serial}`,
    type: shape.customer ? 'customer' : 'tenant',
    ...(shape.customer ? { customer_id: plane.customers[shape.customer] } : {}),
    scopes: shape.scopes,
  });

  async function ownerCreates(plane: Plane, shape: KeyShape): Promise<Body & { key: string; id: string }> {
    const res = await gw('/account/api-keys', { headers: withKey(plane.owner), body: { ...body(plane, shape), data_plane_id: plane.id } });
    expect(res.status).toBe(201);
    return res.body as Body & { key: string; id: string };
  }

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'key-issuing');
    for (const mode of MODES) {
      const owner = mode === 'live' ? tenant.live_key : tenant.test_key;
      const customers = {} as Record<Customer, string>;
      for (const c of ['c1', 'c2'] as const) {
        const res = await gw('/portal/customers', { headers: withKey(owner), body: { name: `${c}-${mode}` } });
        expect(res.status).toBe(201);
        customers[c] = res.body.id as string;
      }
      const plane: Plane = {
        id: mode === 'live' ? tenant.production_data_plane_id : tenant.sandbox_data_plane_id,
        owner,
        customers,
        callers: new Map(),
      };
      for (const caller of CALLERS) {
        const made = await ownerCreates(plane, caller);
        plane.callers.set(caller.name, withKey(made.key, caller.narrowedTo ? { 'x-scope-key': customers[caller.narrowedTo] } : {}));
      }
      planes[mode] = plane;
    }
  });

  it.each(CASES.map((c) => [`${c.mode}: ${c.caller.name} ${c.op}s ${c.target.name} (${c.form} path) → ${c.status}`, c] as const))('%s', async (_, c) => {
    const plane = planes[c.mode];
    const headers = plane.callers.get(c.caller.name)!;
    let res;
    let old: (Body & { id: string }) | undefined;
    if (c.op === 'create') {
      const wanted = body(plane, c.target);
      res =
        c.form === 'account'
          ? await gw('/account/api-keys', { headers, body: { ...wanted, data_plane_id: plane.id } })
          : await gw(`/api/v1/workflow/data-planes/${plane.id}/api-keys`, { headers, body: wanted });
    } else {
      old = await ownerCreates(plane, c.target);
      const path = c.form === 'account' ? `/account/api-keys/${old.id}/rotate` : `/api/v1/workflow/data-planes/api-keys/${old.id}/rotate`;
      res = await gw(path, { headers, body: { transition_period_seconds: 60 } });
    }
    expect(res.status).toBe(c.status);

    if (c.status === 201) {
      // The value is of the plane's kind and carries exactly the target's scopes and customer.
      expect(res.body).toMatchObject({
        mode: c.mode,
        type: c.target.customer ? 'customer' : 'tenant',
        customer_id: c.target.customer ? plane.customers[c.target.customer] : null,
        scopes: c.target.scopes,
      });
      expect(res.body.key).toMatch(new RegExp(`^sv_${c.mode}_`));
      const me = await gw('/account/me', { headers: withKey(res.body.key!) });
      expect(me.body).toMatchObject({ scopes: c.target.scopes, mode: c.mode });
    } else {
      if (c.status === 403) expect(res.body).toEqual(FORBIDDEN);
      expect(res.text).not.toMatch(/sv_(live|test)_/);
    }
    if (old) {
      // A refused rotation changes nothing: the old key stays active and has no successor.
      const state = await gw(`/account/api-keys/${old.id}`, { headers: withKey(plane.owner) });
      expect(state.body).toMatchObject(c.status === 201 ? { status: 'rotated', replaced_by: res.body.id } : { status: 'active', replaced_by: null });
    }
  });

  it('the reported case: a key manager cannot rotate a * key into a value that writes secrets', async () => {
    const plane = planes.test;
    const manager = plane.callers.get('an api_keys:manage tenant key')!;
    const full = await ownerCreates(plane, { name: 'full', scopes: ['*'] });
    for (const path of [`/account/api-keys/${full.id}/rotate`, `/api/v1/workflow/data-planes/api-keys/${full.id}/rotate`]) {
      const res = await gw(path, { headers: manager, body: {} });
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: FORBIDDEN });
    }
    // The manager cannot write a secret itself either, and the * key is untouched and still works.
    expect((await gw('/storage/secrets', { headers: manager, body: { name: 'STOLEN', value: 'x' } })).status).toBe(403);
    expect((await gw('/account/me', { headers: withKey(full.key) })).body).toMatchObject({ scopes: ['*'] });
  });
});
