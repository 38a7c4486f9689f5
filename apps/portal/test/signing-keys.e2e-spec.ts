import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { withKey, type TestTenant } from '@platform/testing';
import { createCustomer, createWorkflow, ECHO_STEPS, gw, NAME_FORM, publish, tenant, type Json } from './portal-helpers.js';
import { decode, insertKey, signWithKey, withDatabase } from './token-forge.js';

describe('signing key rotation and per-address form limits', () => {
  let a: TestTenant;
  let customer: string;
  let published: string;
  let gateway: string;

  const embed = async (body: Record<string, unknown> = {}): Promise<Json> => {
    const res = await gw('/portal/embed', {
      headers: withKey(a.test_key),
      body: { kind: 'form', target_id: published, customer_id: customer, allowed_origins: [], ...body },
    });
    expect(res.status).toBe(201);
    return res.body;
  };
  const open = (url: string) => fetch(url, { redirect: 'manual' });

  beforeAll(async () => {
    a = await tenant('keys-a');
    customer = await createCustomer(a, 'Globex');
    published = await publish(a, await createWorkflow(a, ECHO_STEPS, NAME_FORM), 'all_customers');
    gateway = (await embed()).url as string;
    gateway = gateway.slice(0, gateway.indexOf('/portal/'));
  });

  it('keeps private keys sealed and publishes only public halves', async () => {
    const kid = decode((await embed()).token as string).header.kid as string;
    const row = await withDatabase(async (db) => (await db.query(`select * from portal.signing_keys where id = $1`, [kid])).rows[0] as Record<string, unknown>);
    expect(row.public_jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid });
    expect(row.public_jwk).not.toHaveProperty('d');
    expect((row.private_ciphertext as Buffer).toString('utf8')).not.toContain('"d"');
  });

  it('rotates: a key past its signing period makes way for a new one, and its tokens still verify until it retires', async () => {
    const first = await embed();
    const kid = decode(first.token as string).header.kid as string;
    await withDatabase((db) => db.query(`update portal.signing_keys set signs_until = now() - interval '1 second' where id = $1`, [kid]));
    const second = await embed();
    const next = decode(second.token as string).header.kid as string;
    expect(next).not.toBe(kid);
    expect((await open(first.url as string)).status).toBe(200);
    expect((await open(second.url as string)).status).toBe(200);
    // A retired key (past verifies_until) no longer verifies anything; one in its overlap does.
    const claims = decode(first.token as string).payload;
    const retired = await insertKey(new Date(Date.now() - 2000), new Date(Date.now() - 1000));
    const overlapping = await insertKey(new Date(Date.now() - 2000), new Date(Date.now() + 3_600_000));
    const path = `${gateway}/portal/public/forms/${published}?token=`;
    expect((await open(path + (await signWithKey(retired, claims)))).status).toBe(401);
    expect((await open(path + (await signWithKey(overlapping, claims)))).status).toBe(200);
    // The same claims under a key id the platform never made.
    const unknownKid = (await signWithKey(overlapping, claims)).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'EdDSA', kid: randomUUID(), typ: 'JWT' })).toString('base64url');
    expect((await open(path + [header, unknownKid[1], unknownKid[2]].join('.'))).status).toBe(401);
  });

  it('retires a key it cannot open (sealed under another master key) and signs with a new one', async () => {
    const before = await embed();
    const kid = decode(before.token as string).header.kid as string;
    await withDatabase((db) => db.query(`update portal.signing_keys set private_tag = decode(md5(random()::text), 'hex') where id = $1`, [kid]));
    const after = await embed();
    expect(decode(after.token as string).header.kid).not.toBe(kid);
    expect((await open(before.url as string)).status).toBe(200);
    expect((await open(after.url as string)).status).toBe(200);
  });

  it('limits submissions per client address across a tenant’s forms', async () => {
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 45_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const links = [await embed({ rate_limit_per_minute: 15 }), await embed({ rate_limit_per_minute: 15 })];
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await fetch(links[i % 2].url as string, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ submission_id: randomUUID(), name: `n${i}` }).toString(),
      });
      statuses.push(res.status);
      if (res.status === 429) expect(await res.text()).toContain('from your address');
    }
    // PORTAL_FORM_LIMIT_PER_ADDRESS is 20 by default: the 21st is refused, though each link allows 15.
    expect(statuses.filter((s) => s === 303)).toHaveLength(20);
    expect(statuses[20]).toBe(429);
  }, 90_000);
});
