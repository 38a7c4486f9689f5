import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type Page } from 'playwright-core';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';
import { CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, seriousViolations, watchCsp } from './browser.js';

const env = e2eEnvironment();

describe('the console in a real browser (Debian chromium, playwright-core), against the platform', () => {
  let browser: Browser;
  let page: Page;
  let t: TestTenant;
  let cspViolations: string[] = [];
  const a11y: Record<string, string[]> = {};

  /** Every page the test visits: a screenshot, and axe's serious and critical findings. */
  const look = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    a11y[name] = await seriousViolations(page);
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await createTenant(env.gatewayUrl, env.adminToken, 'console');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.gatewayUrl });
    page = await context.newPage();
    cspViolations = await watchCsp(page);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in with a key, creates, rotates and revokes a key, builds and runs a workflow with an approval, approves it, and toggles a trigger', async () => {
    // Sign in: the key is checked, kept in session storage only.
    await page.goto(`${env.gatewayUrl}/console/`);
    await page.getByLabel('API key').waitFor();
    await look('sign-in');
    await page.getByLabel('API key').fill(t.test_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
    expect(await page.evaluate(() => [sessionStorage.length, localStorage.length, document.cookie])).toEqual([1, 0, '']);
    // A key belongs to one tenant: no tenant switch in the header.
    expect(await page.getByRole('button', { name: /^Tenant / }).count()).toBe(0);
    await look('workflows-empty');

    // API keys: created, its value shown once, then revoked after a confirmation.
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('e2e-reader');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = page.getByTestId('secret-value');
    await secret.waitFor();
    const value = (await secret.textContent())!;
    expect(value).toMatch(/^sv_test_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied').waitFor();
    await look('keys-created');
    expect((await call(env.gatewayUrl, '/run/executions', { headers: withKey(value) })).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await secret.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(value);
    // Rotated: the successor's value is shown once too, and works; the old one is `rotated`.
    await page.getByRole('button', { name: 'Rotate e2e-reader' }).click();
    await page.getByRole('group', { name: 'Rotate e2e-reader' }).getByRole('spinbutton').fill('0');
    await page.getByRole('button', { name: 'Rotate key' }).click();
    await secret.waitFor();
    const successor = (await secret.textContent())!;
    expect(successor).toMatch(/^sv_test_/);
    expect(successor).not.toBe(value);
    await look('keys-rotated');
    expect((await call(env.gatewayUrl, '/run/executions', { headers: withKey(successor) })).status).toBe(200);
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await page.locator('tr', { hasText: 'e2e-reader' }).getByText('rotated').waitFor();
    // Revoked after a confirmation: the API refuses the key at once.
    const active = page.locator('tr', { hasText: 'e2e-reader' }).filter({ hasText: 'active' });
    await active.getByRole('button', { name: 'Revoke e2e-reader' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await active.waitFor({ state: 'detached' });
    await look('keys');
    expect((await call(env.gatewayUrl, '/run/executions', { headers: withKey(successor) })).status).toBe(401);
    // The key's page: its usage and audit log (recorded asynchronously, so waited for through the
    // API first). The rotated key and its successor share the name: the page shows its own key's
    // requests only (filtered by key id), not the other's.
    const byName = async () =>
      (
        await call<{ data: { key_id: string; request_id: string }[] }>(env.gatewayUrl, '/account/audit-logs?key_name=e2e-reader', {
          headers: withKey(t.test_key),
        })
      ).body.data;
    await eventually(
      'audit entries of both e2e-reader keys',
      async () => (new Set((await byName()).map((e) => e.key_id)).size >= 2 ? true : undefined),
      10_000,
      200,
    );
    await page.getByRole('link', { name: 'e2e-reader' }).first().click();
    await page.getByRole('heading', { name: 'API key e2e-reader' }).waitFor();
    const auditTable = page.getByRole('table', { name: 'Audit log' });
    await auditTable.getByText('GET /run/executions').first().waitFor();
    await page.getByRole('table', { name: 'Requests per endpoint' }).waitFor();
    await look('key-usage');
    const shownKey = new URL(page.url()).pathname.split('/').pop()!;
    const shown = await auditTable.locator('tbody tr td:last-child').allTextContents();
    const entries = await byName();
    const own = new Set(entries.filter((e) => e.key_id === shownKey).map((e) => e.request_id));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((requestId) => !own.has(requestId))).toEqual([]);
    expect(entries.some((e) => e.key_id !== shownKey)).toBe(true);
    // A time window in the address: from a future time, nothing.
    await page.getByLabel('From', { exact: true }).fill('2099-01-01T00:00');
    await page.getByText('No requests with this key recorded in this window.').waitFor();
    expect(new URL(page.url()).searchParams.get('from')).toMatch(/^2099-01-01T/);
    await page.getByRole('link', { name: 'All API keys' }).click();

    // A three-step workflow with an approval, built on the graph side, named on the JSON side.
    await page.getByRole('link', { name: 'Workflows', exact: true }).click();
    await page.getByRole('link', { name: 'New workflow' }).click();
    await page.getByLabel('New step type').selectOption('approval');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.getByLabel('New step type').selectOption('transform');
    await page.getByRole('button', { name: 'Add step' }).click();
    await expect(page.locator('.react-flow__node').count()).resolves.toBe(3);
    // The approval's input in a form generated from the input schema the run service publishes for the type.
    await page.locator('.react-flow__node', { hasText: 'approval' }).click();
    const inputForm = page.getByRole('group', { name: 'Input of approval' });
    await inputForm.getByRole('textbox', { name: 'title', exact: true }).fill('Approve the refund');
    await page.getByRole('button', { name: 'Apply to step' }).click();
    await page.getByLabel('Definition (JSON)').getByText('"title": "Approve the refund"').waitFor();
    // The JSON side is CodeMirror: its text is read from its lines, and typing replaces it.
    const json = page.getByLabel('Definition (JSON)');
    const name = `refund-${Date.now()}`;
    await page.getByText('Definition (JSON), checked against its schema as you type').waitFor();
    const original = await json.innerText();
    // A step field of the wrong type is underlined as it is typed (the schema comes from the API's OpenAPI).
    await json.fill(original.replace('"type": "approval"', '"type": "approval", "else": 5'));
    await page.locator('.cm-lintRange-error').first().waitFor();
    await page.locator('.cm-lint-marker-error').first().hover();
    await page.getByText(/\/steps\/1\/else: .*array/).waitFor();
    await json.fill(original.replace('"New workflow"', JSON.stringify(name)));
    await page.locator('.cm-lintRange-error').waitFor({ state: 'detached' });
    const definition = JSON.parse(await json.innerText()) as { steps: { id: string; type: string }[] };
    expect(definition.steps.map((s) => s.type)).toEqual(['transform', 'approval', 'transform']);
    await page.getByRole('button', { name: 'Validate and save' }).click();
    await page.getByText('Saved version 1').waitFor();
    await page.waitForURL(/\/console\/workflows\/[0-9a-f-]{36}$/);
    await look('workflow-editor');
    // A second version (an input schema added), and the diff between the two.
    await json.fill(JSON.stringify({ ...(JSON.parse(await json.innerText()) as object), input_schema: { type: 'object' } }, null, 2));
    await page.getByRole('button', { name: 'Validate and save' }).click();
    await page.getByText('Saved version 2').waitFor();
    await page.getByRole('link', { name: 'Versions' }).click();
    await page.locator('.diff-removed', { hasText: '"input_schema": null' }).waitFor();
    await page.locator('.diff-added', { hasText: '"type": "object"' }).waitFor();
    await page.getByText(/^Version 1 → version 2 .*: \d+ lines changed/).waitFor();
    await look('workflow-versions');
    await page.getByRole('link', { name: 'Back to the editor' }).click();
    await page.getByLabel('Run input (JSON)').fill('{"amount": 12}');
    await page.getByRole('button', { name: 'Run saved version' }).click();
    await page.waitForURL(/\/console\/executions\/[0-9a-f-]{36}$/);
    const executionUrl = page.url();
    await page.getByTestId('execution-status').getByText('waiting').waitFor({ timeout: 20_000 });
    await look('execution-waiting');

    // The inbox: approve with a comment.
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Approve the refund' }).waitFor();
    await look('tasks');
    // Given to the tenant's owner first (the people come from the tenant's team members).
    await page.locator('.card').getByText('unassigned').waitFor();
    await page.getByLabel('Assign to').selectOption({ value: `user:${t.user_id}` });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.locator('.card').getByText('unassigned').waitFor({ state: 'detached' });
    const pending = await call<{ data: { assignee: { user_id?: string } | null }[] }>(env.gatewayUrl, '/tasks', { headers: withKey(t.test_key) });
    expect(pending.body.data[0]?.assignee?.user_id).toBe(t.user_id);
    await page.getByLabel('Comment').fill('Fine by me');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByText('Nothing waits for a decision.').waitFor();

    // The run goes on and succeeds; the detail (polled live) shows each step's output.
    await page.goto(executionUrl);
    await page.getByTestId('execution-status').getByText('succeeded').waitFor({ timeout: 20_000 });
    await expect(page.locator('.timeline > li').count()).resolves.toBe(3);
    await page.getByLabel('Output of transform').waitFor();
    await page.getByLabel('Log lines').locator('li').first().waitFor();
    await look('execution-succeeded');
    await page.getByRole('link', { name: 'Executions', exact: true }).click();
    await page.locator('tbody .status-succeeded').first().waitFor();
    await look('executions');
    // Filtered by trigger type, in the address: the run started through the API, none by a webhook yet.
    await page.getByLabel('Trigger').selectOption('api');
    await page.waitForURL(/trigger_type=api/);
    await page.locator('tbody .status-succeeded').first().waitFor();
    await page.getByLabel('Trigger').selectOption('webhook');
    await page.getByText('No executions match.').waitFor();

    // A schedule trigger, created disabled, then enabled and disabled again.
    await page.getByRole('link', { name: 'Triggers', exact: true }).click();
    await page.getByText('No triggers yet.').waitFor();
    await page.getByRole('button', { name: 'Create trigger' }).click();
    await page.getByLabel('Name').fill('hourly');
    await page.getByLabel('Workflow', { exact: true }).selectOption({ label: name });
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const status = page.getByTestId('trigger-status-hourly');
    await status.getByText('disabled').waitFor();
    await page.getByRole('button', { name: 'Enable hourly' }).click();
    await status.getByText('enabled').waitFor();
    await look('triggers');
    const listed = async () =>
      (await call<{ data: { name: string; status: string }[] }>(env.gatewayUrl, '/triggers', { headers: withKey(t.test_key) })).body.data;
    expect((await listed()).find((x) => x.name === 'hourly')?.status).toBe('enabled');
    await page.getByRole('button', { name: 'Disable hourly' }).click();
    await status.getByText('disabled').waitFor();
    await eventually('trigger disabled', async () => ((await listed()).find((x) => x.name === 'hourly')?.status === 'disabled' ? true : undefined), 5_000, 100);

    // An event trigger: listed with its event type and filter.
    await page.getByRole('button', { name: 'Create trigger' }).click();
    await page.getByLabel('Platform event').check();
    await page.getByLabel('Name').fill('on-failure');
    await page.getByLabel('Event type').selectOption('run.execution.failed');
    await page.getByLabel('Filter (JSONata, optional)').fill('$exists(execution_id)');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await page.locator('tr', { hasText: 'on-failure' }).getByText('run.execution.failed where $exists(execution_id)').waitFor();

    // A webhook: its signing secret shown once; a signed delivery runs the workflow, shows in the log, and is replayed.
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByText('No webhooks yet.').waitFor();
    await look('webhooks-empty');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByLabel('Name').fill('e2e-hook');
    await page.getByLabel('Workflow', { exact: true }).selectOption({ label: name });
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await secret.waitFor();
    const signingSecret = (await secret.textContent())!;
    expect(signingSecret).toMatch(/^whsec_/);
    await page.getByTestId('webhook-status-e2e-hook').getByText('enabled').waitFor();
    await look('webhooks');
    await page.getByRole('button', { name: 'I have saved it' }).click();
    await secret.waitFor({ state: 'detached' });
    const hooks = (await call<{ data: { name: string; url: string }[] }>(env.gatewayUrl, '/webhooks', { headers: withKey(t.test_key) })).body.data;
    const hookUrl = hooks.find((h) => h.name === 'e2e-hook')!.url;
    const body = JSON.stringify({ amount: 7 });
    const [msgId, timestamp] = [`msg_${Date.now()}`, String(Math.floor(Date.now() / 1000))];
    const signature = createHmac('sha256', Buffer.from(signingSecret.slice('whsec_'.length), 'base64'))
      .update(`${msgId}.${timestamp}.${body}`)
      .digest('base64');
    const delivered = await call(env.gatewayUrl, hookUrl, {
      body,
      headers: { 'webhook-id': msgId, 'webhook-timestamp': timestamp, 'webhook-signature': `v1,${signature}` },
    });
    expect(delivered.status).toBe(202);
    await page.getByRole('link', { name: 'e2e-hook' }).click();
    const deliveries = page.getByTestId('delivery');
    await deliveries.first().getByText('accepted').waitFor();
    await deliveries
      .first()
      .getByRole('button', { name: /^Replay delivery/ })
      .click();
    await page.getByText('Replayed:').waitFor();
    await deliveries.nth(1).waitFor();
    await expect(deliveries.count()).resolves.toBe(2);
    await look('webhook-deliveries');

    // The read-mostly pages: each one's empty state, and axe on it (their forms: console-forms.e2e-spec.ts).
    await page.getByRole('link', { name: 'Connections', exact: true }).click();
    await page.getByText('No connections yet.').waitFor();
    await look('connections');
    await page.getByRole('link', { name: 'Usage', exact: true }).click();
    await page.getByRole('table', { name: 'Use in this period' }).waitFor();
    await page.getByText('No invoice issued yet', { exact: false }).waitFor();
    await look('usage');
    await page.getByRole('link', { name: 'Customers', exact: true }).click();
    await page.getByText('No customers match.', { exact: false }).waitFor();
    await look('customers');

    // Sign out: the key is gone from the tab.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    expect(cspViolations).toEqual([]);
    expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
  }, 100_000);

  it('answers a deep link with the app, narrow screens included', async () => {
    const narrow = await browser.newPage({ viewport: { width: 390, height: 844 } });
    try {
      await narrow.goto(`${env.gatewayUrl}/console/executions?status=failed`);
      await narrow.getByLabel('API key').fill(t.test_key);
      await narrow.getByRole('button', { name: 'Sign in' }).click();
      await narrow.getByText('No executions match.').waitFor();
      expect(new URL(narrow.url()).search).toBe('?status=failed');
      await narrow.screenshot({ path: join(SCREENSHOTS, 'executions-390.png'), fullPage: true });
    } finally {
      await narrow.close();
    }
  }, 30_000);
});
