import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';
import { CHROMIUM, CHROMIUM_ARGS, watchCsp } from './browser.js';

const env = e2eEnvironment();

/**
 * Single sign-on in a real browser: the console sends the user to the run's test identity
 * provider (its login page), comes back with a code, exchanges it with the PKCE verifier it
 * kept, and the user picks a tenant among those the token authorizes.
 */
describe('the console signs users in through OIDC with PKCE (Debian chromium)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let a: TestTenant;
  let b: TestTenant;
  let other: TestTenant;

  const workflow = async (t: TestTenant, name: string): Promise<void> => {
    const res = await call(env.gatewayUrl, '/run/workflows', { headers: withKey(t.live_key), body: { name, steps: [{ id: 's', type: 'transform' }] } });
    expect(res.status).toBe(201);
  };

  beforeAll(async () => {
    [a, b, other] = await Promise.all([
      createTenant(env.gatewayUrl, env.adminToken, 'sso-a'),
      createTenant(env.gatewayUrl, env.adminToken, 'sso-b'),
      createTenant(env.gatewayUrl, env.adminToken, 'sso-other'),
    ]);
    await Promise.all([workflow(a, 'only-in-a'), workflow(b, 'only-in-b'), workflow(other, 'only-in-other')]);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('signs in at the provider, offers the authorized tenants, shows only the picked tenant’s data, and switches tenant without a new sign-in', async () => {
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const cspViolations = await watchCsp(page);

    await page.goto(`${env.gatewayUrl}/console/`);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();

    // At the provider: the request carries an S256 challenge, the state and the API's audience.
    await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
    const authorize = new URL(page.url());
    expect(authorize.origin).toBe(new URL(env.jwt.issuer).origin);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      client_id: 'platform-console-e2e',
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: `${env.gatewayUrl}/console/auth/callback`,
      audience: env.jwt.audience,
      state: expect.any(String),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    await page.getByLabel('Email').fill('ops@sso.test');
    await page.getByLabel('Tenants').fill(`${a.tenant_id}, ${b.tenant_id}`);
    await page.getByRole('button', { name: 'Sign in to the provider' }).click();

    // Back in the console: two tenants to choose from, not the third.
    const picker = page.getByRole('list', { name: 'Tenants' });
    await picker.waitFor();
    expect((await picker.getByRole('button').allTextContents()).sort()).toEqual([a.tenant_id, b.tenant_id].sort());
    await picker.getByRole('button', { name: b.tenant_id }).click();

    await page.getByRole('heading', { name: 'Workflows' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/workflows');
    await expect(page.getByText('only-in-b').waitFor()).resolves.toBeUndefined();
    expect(await page.getByText('only-in-a').count()).toBe(0);
    expect(await page.getByText('only-in-other').count()).toBe(0);
    expect(await page.locator('header .who').textContent()).toContain('ops@sso.test');

    // The token and the tenant are kept for this tab only; the PKCE verifier is gone.
    const stored = await page.evaluate(() => ({ keys: Object.keys(sessionStorage).sort(), local: localStorage.length, cookie: document.cookie }));
    expect(stored).toEqual({ keys: ['platform-console.tenant', 'platform-console.token'], local: 0, cookie: '' });
    const token = await page.evaluate(() => sessionStorage.getItem('platform-console.token'));

    // The token works for the tenants it names and for no other, straight from the API.
    const asUser = (tenant: string) => ({ authorization: `Bearer ${token}`, 'x-selected-tenant': tenant });
    expect((await call(env.gatewayUrl, '/account/me', { headers: asUser(a.tenant_id) })).status).toBe(200);
    expect((await call(env.gatewayUrl, '/account/me', { headers: asUser(other.tenant_id) })).status).toBe(403);

    // Switch to the other tenant from the header, without signing in again: the page loads the
    // other tenant's data (opened on a workflow of b, it falls back to the list), the tab keeps it.
    await page.getByRole('link', { name: 'only-in-b', exact: true }).click();
    await page.getByRole('heading', { name: 'Workflow: only-in-b' }).waitFor();
    const menu = page.getByRole('button', { name: /^Tenant / });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const switchList = page.getByRole('list', { name: 'Switch tenant' });
    expect((await switchList.getByRole('button').allTextContents()).sort()).toEqual([a.tenant_id, b.tenant_id].sort());
    expect(await switchList.getByRole('button', { name: b.tenant_id }).isDisabled()).toBe(true);
    await switchList.getByRole('button', { name: a.tenant_id }).click();
    await page.getByText('only-in-a').waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/workflows');
    expect(await page.getByText('only-in-b').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('platform-console.tenant'))).toBe(a.tenant_id);
    expect(await page.evaluate(() => sessionStorage.getItem('platform-console.token'))).toBe(token);
    expect(await page.getByRole('list', { name: 'Switch tenant' }).count()).toBe(0);
    // Keyboard: the menu opens with Enter and closes with Escape.
    await menu.focus();
    await page.keyboard.press('Enter');
    await switchList.waitFor();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('list', { name: 'Switch tenant' }).count()).toBe(0);

    // A reload keeps the session (in the tenant switched to); sign out forgets it.
    await page.reload();
    await page.getByText('only-in-a').waitFor();
    expect(await page.getByText('only-in-b').count()).toBe(0);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    expect(cspViolations).toEqual([]);
    await context.close();
  }, 60_000);

  it('refuses a callback it did not start, and one whose state is not the one it sent', async () => {
    context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${env.gatewayUrl}/console/auth/callback?code=forged&state=forged`);
    await page.getByText('No sign-in was started in this tab').waitFor();

    // A sign-in under way, and an attacker's callback with another state: refused, no session.
    await page.goto(`${env.gatewayUrl}/console/`);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
    await page.goto(`${env.gatewayUrl}/console/auth/callback?code=forged&state=not-the-one-sent`);
    await page.getByText(/state/).waitFor();
    expect(await page.getByRole('heading', { name: 'Workflows' }).count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    // With one authorized tenant there is nothing to pick.
    await page.goto(`${env.gatewayUrl}/console/`);
    await page.getByRole('button', { name: 'Continue with single sign-on' }).click();
    await page.getByLabel('Tenants').fill(a.tenant_id);
    await page.getByRole('button', { name: 'Sign in to the provider' }).click();
    await page.getByText('only-in-a').waitFor();
    expect(await page.getByRole('button', { name: /^Tenant / }).count()).toBe(0);
    await context.close();
  }, 60_000);
});
