import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, withKey, type TestTenant } from '@platform/testing';
import { createCustomer, createWorkflow, customerKey, ECHO_STEPS, env, gw, NAME_FORM, publish, tenant, type Json } from './portal-helpers.js';
import { decode, signWithKey } from './token-forge.js';

const ORIGIN = 'http://127.0.0.1:4555';

async function embed(t: TestTenant, body: Record<string, unknown>): Promise<Json> {
  const res = await gw('/portal/embed', { headers: withKey(t.test_key), body: { allowed_origins: [ORIGIN], expires_in_seconds: 600, ...body } });
  if (res.status !== 201) throw new Error(`embed not made: ${res.status} ${res.text}`);
  return res.body;
}

/** A public view as a browser asks for it: no credentials, the token in the address. */
const view = (path: string, init: RequestInit = {}) => fetch(`${env.gatewayUrl}${path}`, { redirect: 'manual', ...init });
const pathOf = (url: string) => url.slice(url.indexOf('/portal/'));
const submit = (url: string, fields: Record<string, string>) =>
  view(pathOf(url), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const hiddenSubmissionId = (html: string) => /name="submission_id" value="([^"]+)"/.exec(html)![1];

describe('embed tokens and public forms end to end', () => {
  let a: TestTenant;
  let b: TestTenant;
  let c1: string;
  let c2: string;
  let published: string;
  let other: string;
  let bPublished: string;
  let form1: Json;

  beforeAll(async () => {
    [a, b] = await Promise.all([tenant('embed-a'), tenant('embed-b')]);
    [c1, c2] = await Promise.all([createCustomer(a, 'Globex'), createCustomer(a, 'Initech')]);
    const workflow = await createWorkflow(a, ECHO_STEPS, NAME_FORM);
    published = await publish(a, workflow, 'all_customers', { title: 'Say hello' });
    other = await publish(a, await createWorkflow(a, ECHO_STEPS, NAME_FORM), { customer_ids: [c2] });
    bPublished = await publish(b, await createWorkflow(b, ECHO_STEPS, NAME_FORM), 'all_customers');
    form1 = await embed(a, { kind: 'form', target_id: published, customer_id: c1 });
  });

  it('answers a token, a view address and an iframe snippet, and validates the body', async () => {
    expect(form1).toMatchObject({
      kind: 'form',
      target_id: published,
      customer_id: c1,
      allowed_origins: [ORIGIN],
      rate_limit_per_minute: 30,
      revoked_at: null,
    });
    expect(form1.url).toBe(`${env.gatewayUrl}/portal/public/forms/${published}?token=${form1.token as string}`);
    expect(form1.html).toContain('<iframe src="');
    expect(form1.html).toContain('title="Say hello"');
    const { header, payload } = decode(form1.token as string);
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'JWT' });
    expect(payload).toMatchObject({ jti: form1.id, cid: c1, knd: 'form', tgt: published, tid: a.tenant_id, aud: 'portal-embed' });
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await gw('/portal/embed', {
        headers: withKey(a.test_key),
        body: { kind: 'form', target_id: published, customer_id: c1, allowed_origins: [], ...body },
      });
      expect(res.status).toBe(400);
      expect(res.body.details?.map((d) => d.field)).toContain(field);
    };
    await bad({ kind: 'page' }, 'kind');
    await bad({ customer_id: randomUUID() }, 'customer_id');
    await bad({ target_id: randomUUID() }, 'target_id');
    await bad({ target_id: other }, 'target_id'); // published to c2 only
    await bad({ target_id: bPublished }, 'target_id'); // another tenant's
    await bad({ allowed_origins: ['https://example.com/path'] }, 'allowed_origins');
    await bad({ expires_in_seconds: 3_000_000 }, 'expires_in_seconds');
  });

  it('renders the form, starts one run per submission id and shows its result, with frame-ancestors from the token', async () => {
    const page = await view(pathOf(form1.url as string));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors ${ORIGIN}`);
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('<label for="f-name">Your name');
    const submissionId = hiddenSubmissionId(html);
    const sent = await submit(form1.url as string, { submission_id: submissionId, name: 'Ana' });
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/portal/public/forms/${published}/runs/[0-9a-f-]{36}\\?token=`));
    const result = await eventually('the run result', async () => {
      const text = await (await view(location)).text();
      return text.includes('data-status="succeeded"') ? text : undefined;
    });
    expect(result).toContain('Hello Ana');
    // The same submission again: the same run, nothing new started.
    const again = await submit(form1.url as string, { submission_id: submissionId, name: 'Ana' });
    expect(again.headers.get('location')).toBe(location);
    const runs = (await gw('/run/executions', { headers: withKey(a.test_key, { 'x-scope-key': c1 }) })).body.data ?? [];
    expect(runs.filter((r) => r.trigger && (r.trigger as Json).id === published)).toHaveLength(1);
    // A missing required field: the form again, 400, naming it.
    const missing = await submit(form1.url as string, { submission_id: randomUUID(), name: '' });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain('role="alert"');
  });

  it("refuses a submission over 64 KiB with 413 without failing the next visitor's submission", async () => {
    // A customer of its own: the runs of c1 and c2 are counted elsewhere.
    const link = await embed(a, { kind: 'form', target_id: published, customer_id: await createCustomer(a, 'Umbrella') });
    const big = await submit(link.url as string, { submission_id: randomUUID(), name: 'x'.repeat(200 * 1024) });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('A form submission is at most 65536 bytes');
    // The gateway sends this one on the connection the 413 came back on: the portal used to take it
    // for the rest of the first body and never answer (a 502 after 6 s).
    const next = await submit(link.url as string, { submission_id: randomUUID(), name: 'Ana' });
    expect(next.status).toBe(303);
  });

  it('refuses tampered, wrongly signed, expired, revoked and wrong-target tokens', async () => {
    const token = form1.token as string;
    const [h, p, s] = token.split('.');
    const claims = decode(token).payload;
    const tampered = `${h}.${Buffer.from(JSON.stringify({ ...claims, cid: c2 })).toString('base64url')}.${s}`;
    const expired = await signWithKey(decode(token).header.kid as string, { ...claims, exp: Math.floor(Date.now() / 1000) - 5 });
    for (const bad of [tampered, `${h}.${p}.${s.slice(0, -4)}AAAA`, expired, 'not-a-token', '']) {
      const res = await view(`/portal/public/forms/${published}?token=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    expect((await view(`/portal/public/forms/${published}`)).status).toBe(401);
    // Made for the form of `published`: not another form, not the runs view, not another tenant's form.
    for (const path of [
      `/portal/public/forms/${other}`,
      `/portal/public/runs/${published}`,
      `/portal/public/forms/${bPublished}`,
      `/portal/public/dashboards/${published}`,
    ]) {
      expect((await view(`${path}?token=${encodeURIComponent(token)}`)).status).toBe(403);
    }
    const revocable = await embed(a, { kind: 'form', target_id: published, customer_id: c1 });
    expect((await view(pathOf(revocable.url as string))).status).toBe(200);
    expect((await gw(`/portal/embed/${revocable.id as string}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
    expect((await view(pathOf(revocable.url as string))).status).toBe(401);
  });

  it("never shows customer A's token customer B's runs or another tenant's data", async () => {
    const formC2 = await embed(a, { kind: 'form', target_id: published, customer_id: c2 });
    const page = await (await view(pathOf(formC2.url as string))).text();
    const sent = await submit(formC2.url as string, { submission_id: hiddenSubmissionId(page), name: 'Bo' });
    const runOfC2 = /runs\/([0-9a-f-]{36})/.exec(sent.headers.get('location')!)![1];
    const token1 = encodeURIComponent(form1.token as string);
    const foreign = await view(`/portal/public/forms/${published}/runs/${runOfC2}?token=${token1}`);
    const unknown = await view(`/portal/public/forms/${published}/runs/${randomUUID()}?token=${token1}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toBe(await unknown.text());
    // The runs view of c1 lists c1's run only.
    const runs1 = await embed(a, { kind: 'runs', target_id: published, customer_id: c1 });
    const list = await (await view(pathOf(runs1.url as string))).text();
    expect(list).not.toContain(runOfC2);
    expect((list.match(/data-status="/g) ?? []).length).toBe(1);
  });

  it("shows an embedded dashboard with the token's customer's numbers only", async () => {
    const dashboard = (
      await gw('/portal/dashboards', {
        headers: withKey(a.test_key),
        body: { name: 'Your runs', widgets: [{ type: 'executions_per_day' }, { type: 'failure_rate' }] },
      })
    ).body.id as string;
    const own = (await gw(`/portal/dashboards/${dashboard}/data`, { headers: withKey(a.test_key, { 'x-scope-key': c1 }) })).body;
    const all = (await gw(`/portal/dashboards/${dashboard}/data`, { headers: withKey(a.test_key) })).body;
    const totalOf = (body: Json) => ((body.widgets as Json[])[0].data as unknown as Json).total as number;
    expect(totalOf(all)).toBeGreaterThan(totalOf(own));
    const board = await embed(a, { kind: 'dashboard', target_id: dashboard, customer_id: c1 });
    const res = await view(pathOf(board.url as string));
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<h1>Your runs</h1>');
    expect(html).toContain(`<p>${totalOf(own)} executions.</p>`);
    expect(html).toContain('<caption>Executions per day</caption>');
    // Made for this dashboard: not the form.
    expect((await view(`/portal/public/forms/${published}?token=${encodeURIComponent(board.token as string)}`)).status).toBe(403);
  });

  it('keeps embed records per tenant and per customer (404 identical to an unknown id)', async () => {
    const unknown = await gw(`/portal/embed/${randomUUID()}`, { headers: withKey(b.test_key) });
    const foreign = await gw(`/portal/embed/${form1.id as string}`, { headers: withKey(b.test_key) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe(unknown.body.message);
    expect((await gw(`/portal/embed/${form1.id as string}`, { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
    const key2 = await customerKey(a, c2, ['portal:read']);
    expect((await gw(`/portal/embed/${form1.id as string}`, { headers: withKey(key2) })).status).toBe(404);
    expect(((await gw('/portal/embed', { headers: withKey(key2) })).body.data ?? []).every((e) => e.customer_id === c2)).toBe(true);
    const listed = await gw(`/portal/embed?customer_id=${c1}&kind=form`, { headers: withKey(a.test_key) });
    expect((listed.body.data ?? []).map((e) => e.id)).toContain(form1.id);
    expect(JSON.stringify(listed.body)).not.toContain(String(form1.token));
  });

  it('limits submissions per link, with Retry-After', async () => {
    // Fixed one-minute windows: start early in one so the three submissions share it.
    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 50_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 200));
    const limited = await embed(a, { kind: 'form', target_id: published, customer_id: c1, rate_limit_per_minute: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await submit(limited.url as string, { submission_id: randomUUID(), name: `n${i}` })).status);
    expect(statuses).toEqual([303, 303, 429]);
    const refused = await submit(limited.url as string, { submission_id: randomUUID(), name: 'x' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  }, 90_000);
});
