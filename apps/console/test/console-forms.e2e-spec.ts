import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type Page } from 'playwright-core';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';
import { CHROMIUM, CHROMIUM_ARGS, SCREENSHOTS, seriousViolations, watchCsp } from './browser.js';

const env = e2eEnvironment();

/**
 * The console's create forms for connections and customers, in a real browser against the
 * platform: the API's validation problems shown at their fields, a connection tested, an OAuth
 * connection's authorization started through the API and the browser sent to the provider and
 * back, a customer listed; axe on every state.
 */
describe('the console creates connections and customers (Debian chromium)', () => {
  let browser: Browser;
  let page: Page;
  let t: TestTenant;
  let cspViolations: string[] = [];
  const a11y: Record<string, string[]> = {};

  const look = async (name: string): Promise<void> => {
    await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    a11y[name] = await seriousViolations(page);
  };

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    t = await createTenant(env.gatewayUrl, env.adminToken, 'console-forms');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    cspViolations = await watchCsp(page);
    await page.goto(`${env.gatewayUrl}/console/`);
    await page.getByLabel('API key').fill(t.test_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('creates a connection (its problem shown at the field) and tests it, and starts an OAuth connection’s authorization', async () => {
    // Connections: the empty state; a plain connection whose settings the API refuses at the
    // field, then made and tested (its base URL is on loopback, which the platform refuses to call).
    await page.getByRole('link', { name: 'Connections', exact: true }).click();
    await page.getByText('No connections yet.').waitFor();
    await page.getByRole('button', { name: 'Create connection' }).click();
    const connectionForm = page.getByRole('form', { name: 'Create connection' });
    await connectionForm.getByLabel('Name', { exact: true }).fill('e2e-http');
    await connectionForm.getByLabel('Connector').selectOption('http');
    const baseUrl = connectionForm.getByLabel('base_url');
    await baseUrl.fill('ftp://example.test/');
    await connectionForm.getByRole('button', { name: 'Create', exact: true }).click();
    await connectionForm.locator('.field-problem').first().waitFor();
    expect(await baseUrl.getAttribute('aria-invalid')).toBe('true');
    const problemId = (await baseUrl.getAttribute('aria-describedby'))!.split(' ').pop()!;
    expect(await page.locator(`[id="${problemId}"]`).textContent()).toMatch(/\S/);
    await look('connection-form-problem');
    await baseUrl.fill('http://127.0.0.1:9/');
    await connectionForm.getByRole('button', { name: 'Create', exact: true }).click();
    await page.getByText('Connection e2e-http created.').waitFor();
    await page.getByRole('button', { name: 'Test e2e-http' }).click();
    await page
      .getByTestId('test-e2e-http')
      .getByText(/^failed/)
      .waitFor();
    await look('connection-tested');

    // An OAuth 2.0 connection: made, then the console starts the authorization through the API
    // and sends the browser to the provider (a stand-in page here) with PKCE and a state. The
    // provider refusing it sends the browser back through the API's callback to the page.
    await page.route('https://provider.example/**', (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Stand-in provider</title><h1>Sign in</h1>' }),
    );
    await page.getByRole('button', { name: 'Create connection' }).click();
    await connectionForm.getByLabel('Name', { exact: true }).fill('e2e-oauth');
    await connectionForm.getByLabel('Connector').selectOption('http');
    await baseUrl.fill('https://api.example/');
    await connectionForm.getByLabel('Scheme').selectOption('oauth2_code');
    await connectionForm.getByLabel('Client id').fill('console-e2e');
    await connectionForm.getByLabel('Authorization URL').fill('https://provider.example/authorize');
    await connectionForm.getByLabel('Token URL').fill('https://provider.example/token');
    await connectionForm.getByLabel('Scopes').fill('read write');
    await connectionForm.getByRole('button', { name: 'Create and authorize' }).click();
    await page.waitForURL(/^https:\/\/provider\.example\/authorize\?/);
    const authorization = new URL(page.url());
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'console-e2e',
      redirect_uri: `${env.gatewayUrl}/connections/oauth/callback`,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.any(String),
      scope: 'read write',
    });
    await page.goto(`${env.gatewayUrl}/connections/oauth/callback?error=access_denied&state=${authorization.searchParams.get('state')}`);
    await page.getByText('The provider did not authorize the connection').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/connections');
    await page.getByRole('button', { name: 'Authorize e2e-oauth' }).waitFor();
    await page.unroute('https://provider.example/**');
    await look('connections-oauth-returned');

    expect(cspViolations).toEqual([]);
    expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
  }, 60_000);

  it('creates a customer and lists it; a taken external id is refused at its field', async () => {
    // Customers: created and listed; a second with the same external id is refused at that field.
    await page.getByRole('link', { name: 'Customers', exact: true }).click();
    await page.getByText('No customers match.', { exact: false }).waitFor();
    const createCustomer = async (name: string, externalId: string) => {
      await page.getByRole('button', { name: 'Create customer' }).click();
      const form = page.getByRole('form', { name: 'Create customer' });
      await form.getByLabel('Name', { exact: true }).fill(name);
      await form.getByLabel('External id (optional)').fill(externalId);
      await form.getByLabel('Metadata (optional JSON object)').fill('{"plan": "gold"}');
      await form.getByRole('button', { name: 'Create', exact: true }).click();
      return form;
    };
    await createCustomer('Globex', 'crm-4711');
    await page
      .getByRole('row', { name: /Globex/ })
      .getByText('crm-4711')
      .waitFor();
    const listed = await call<{ data: { name: string; external_id: string; metadata: unknown }[] }>(env.gatewayUrl, '/portal/customers', {
      headers: withKey(t.test_key),
    });
    expect(listed.body.data).toEqual([expect.objectContaining({ name: 'Globex', external_id: 'crm-4711', metadata: { plan: 'gold' } })]);
    await look('customers-created');
    const again = await createCustomer('Globex again', 'crm-4711');
    await again.locator('.field-problem', { hasText: 'already exists' }).waitFor();
    expect(await again.getByLabel('External id (optional)').getAttribute('aria-invalid')).toBe('true');
    await look('customer-form-problem');
    await again.getByRole('button', { name: 'Cancel' }).click();
    // Another tenant does not see it.
    const other = await createTenant(env.gatewayUrl, env.adminToken, 'console-forms-other');
    expect((await call<{ data: unknown[] }>(env.gatewayUrl, '/portal/customers', { headers: withKey(other.test_key) })).body.data).toEqual([]);
    expect(cspViolations).toEqual([]);
    expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
  }, 60_000);
});
