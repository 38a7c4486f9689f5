import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { REPO_ROOT, withKey, type TestTenant } from '@platform/testing';
import { tenantSite, type TenantSite } from './browser-pages.js';
import { createCustomer, createWorkflow, ECHO_STEPS, gw, NAME_FORM, publish, tenant } from './portal-helpers.js';

const CHROMIUM = '/usr/bin/chromium';
/** Kept after the run (gitignored): what the browser showed. */
const SCREENSHOTS = join(REPO_ROOT, 'apps/portal/screenshots');

describe('embedded form in a real browser (Debian chromium, playwright-core)', () => {
  let browser: Browser;
  let allowed: TenantSite;
  let stranger: TenantSite;
  let a: TestTenant;
  let customer: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: scripts/ensure-browser.sh installs it (npm test runs it)`);
    mkdirSync(SCREENSHOTS, { recursive: true });
    [allowed, stranger] = await Promise.all([tenantSite(), tenantSite()]);
    a = await tenant('browser-a');
    customer = await createCustomer(a, 'Globex');
    const published = await publish(a, await createWorkflow(a, ECHO_STEPS, NAME_FORM), 'all_customers', {
      title: 'Say hello',
      description: 'We greet you by name.',
    });
    const embed = await gw('/portal/embed', {
      headers: withKey(a.test_key),
      body: { kind: 'form', target_id: published, customer_id: customer, allowed_origins: [allowed.origin], expires_in_seconds: 600 },
    });
    expect(embed.status).toBe(201);
    allowed.show('Globex customer portal', embed.body.html as string);
    stranger.show('Somebody else’s site', embed.body.html as string);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-background-networking'] });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([allowed?.close(), stranger?.close()]);
  });

  it('renders the form inside a page of an allowed origin, submits it and shows the run’s result', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(allowed.origin);
      const frame = page.frameLocator('iframe');
      await frame.getByRole('heading', { name: 'Say hello' }).waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, 'embed-form.png'), fullPage: true });
      // The label is tied to its input: what a screen reader announces is what the test fills in.
      await frame.getByLabel('Your name').fill('Ana');
      await frame.getByRole('button', { name: 'Submit' }).click();
      await frame.getByText('Hello Ana').waitFor({ timeout: 20_000 });
      await expect(frame.locator('[data-status]').first().getAttribute('data-status')).resolves.toBe('succeeded');
      await page.screenshot({ path: join(SCREENSHOTS, 'embed-result.png'), fullPage: true });
      const runs = await gw('/run/executions', { headers: withKey(a.test_key, { 'x-scope-key': customer }) });
      expect(runs.body.data).toHaveLength(1);
      expect(runs.body.data![0]).toMatchObject({ status: 'succeeded', customer_id: customer, output: { greeting: 'Hello Ana' } });
    } finally {
      await page.close();
    }
  }, 60_000);

  it('cannot be framed by a page of an origin the token does not allow', async () => {
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('frame-ancestors')) refusals.push(message.text());
    });
    try {
      await page.goto(stranger.origin);
      await page.waitForLoadState('load');
      await page.waitForTimeout(500);
      const framed = page.frames().find((f) => f !== page.mainFrame());
      expect(framed).toBeDefined();
      // The browser replaced the view by its own error page: no form, no heading from the platform.
      expect(await framed!.locator('form').count()).toBe(0);
      expect(await framed!.getByText('Say hello').count()).toBe(0);
      expect(refusals.join('\n')).toContain('frame-ancestors');
      await page.screenshot({ path: join(SCREENSHOTS, 'embed-refused.png'), fullPage: true });
    } finally {
      await page.close();
    }
  }, 60_000);
});
