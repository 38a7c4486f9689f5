import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { REPO_ROOT } from '@platform/testing';

/** Debian's chromium, driven by playwright-core (no browser build of its own). */
export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-background-networking'];
/** Kept after the run (gitignored): a screenshot of every page the tests saw. */
export const SCREENSHOTS = join(REPO_ROOT, 'apps/console/screenshots');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core on the page as it is. The console's CSP forbids inline scripts, so axe is not added
 * as a script tag (the browser would refuse it, as it should): it is evaluated through the
 * DevTools protocol, which the page's CSP does not govern.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * The page's Content-Security-Policy violations, each naming the directive and the element or
 * script refused (Chromium's own console message names neither), from the page's
 * `securitypolicyviolation` events (a listener added through the DevTools protocol, which the CSP
 * does not govern). One kind is left out: a `style` attribute on a line of the JSON editor's
 * contenteditable. Chromium's native editing adds one when it edits the lines before CodeMirror
 * takes the change over (seen only on a loaded machine, after select-all and typing); it is the
 * browser's, the CSP refuses it as it should, and CodeMirror redraws the line. Anything else,
 * from our code or a library, is reported.
 */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      // The innermost node: a violation inside a shadow root (the JSON editor's) is retargeted to its host.
      const origin = event.composedPath()[0] ?? event.target;
      const element = origin instanceof Element ? origin : null;
      const browserEditing =
        event.violatedDirective === 'style-src-attr' && element?.classList.contains('cm-line') && element.parentElement?.classList.contains('cm-content');
      if (browserEditing) return;
      const target = element ? element.outerHTML.slice(0, 160) : origin === document ? 'the document' : 'another node';
      console.warn(`CSP violation: ${event.violatedDirective} by ${target} (sample: ${event.sample || '-'}, at ${event.sourceFile}:${event.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (message.text().startsWith('CSP violation:')) violations.push(message.text());
  });
  return violations;
}
