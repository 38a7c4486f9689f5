import { beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, withKey, type TestTenant } from '@platform/testing';
import { ECHO_STEPS, env, gw, NAME_FORM, tenant, type Json } from './portal-helpers.js';

/** A public form's run belongs to the data plane of the link: sandbox usage for a link made with a test key, billable for a live one. */
describe('public form runs are metered by the data plane of their link', () => {
  let a: TestTenant;

  beforeAll(async () => {
    a = await tenant('form-metering');
  });

  /** A form link made with `key`: a workflow, published to a customer of that key's data plane, and its embed token. */
  async function formLink(key: string): Promise<string> {
    const customer = (await gw('/portal/customers', { headers: withKey(key), body: { name: 'Globex' } })).body.id as string;
    const workflow = await gw('/api/v1/workflow/workflows', { headers: withKey(key), body: { name: 'hello', steps: ECHO_STEPS, input_schema: NAME_FORM } });
    expect(workflow.status).toBe(201);
    const published = await gw('/portal/workflows', {
      headers: withKey(key),
      body: { workflow_id: workflow.body.id, visibility: 'all_customers', title: 'Hello' },
    });
    expect(published.status).toBe(201);
    const embed = await gw('/portal/embed', {
      headers: withKey(key),
      body: { kind: 'form', target_id: published.body.id, customer_id: customer, allowed_origins: [], expires_in_seconds: 600 },
    });
    expect(embed.status).toBe(201);
    return (embed.body.url as string).slice((embed.body.url as string).indexOf('/portal/'));
  }

  async function submitOnce(path: string): Promise<void> {
    const page = await (await fetch(`${env.gatewayUrl}${path}`)).text();
    const submissionId = /name="submission_id" value="([^"]+)"/.exec(page)![1];
    const sent = await fetch(`${env.gatewayUrl}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ submission_id: submissionId, name: 'Ana' }).toString(),
    });
    expect(sent.status).toBe(303);
  }

  it('counts a run from a test key’s link as sandbox usage and one from a live key’s link as billable', async () => {
    await submitOnce(await formLink(a.test_key));
    await submitOnce(await formLink(a.live_key));
    const runs = (u: Json) => (u.metrics as Json[]).find((m) => m.metric === 'runs')!;
    const counted = await eventually(
      'both form runs metered',
      async () => {
        const metric = runs((await gw('/subscription/usage', { headers: withKey(a.live_key) })).body);
        return Number(metric.used) + Number(metric.sandbox_used) >= 2 ? metric : undefined;
      },
      20_000,
    );
    expect(counted).toMatchObject({ used: 1, sandbox_used: 1 });
  });
});
