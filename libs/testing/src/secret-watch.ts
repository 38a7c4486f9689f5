import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SecretRedactor } from '@platform/common';
import { e2eEnvironment } from './e2e-environment.js';
import { observeResponses } from './http-client.js';
import { sleep } from './waiting.js';

/**
 * Keeps a suite's secret values (provider keys, credentials, webhook URLs, tokens) and every
 * answer the suite gets from the platform (bodies and headers, execution records and logs read
 * through the API included), and finds any of those values there or in the platform's log files,
 * in any form the platform's SecretRedactor knows (as given, URL-encoded, JSON-escaped, base64, a
 * secret URL's path). Call `leaks()` in the suite's afterAll and expect none.
 */
export class SecretWatch {
  private readonly secrets = new Set<string>();
  private readonly answers: { where: string; text: string }[] = [];
  private readonly platformUrls: Set<string>;
  private readonly stop: () => void;

  constructor(private readonly logDirs: string[] = [e2eEnvironment().logDir]) {
    const env = e2eEnvironment();
    this.platformUrls = new Set([env.gatewayUrl, ...Object.values(env.serviceUrls)]);
    // Only the platform's answers: a stand-in server the suite reads back holds the secrets rightly.
    this.stop = observeResponses((baseUrl, path, res) => {
      if (!this.platformUrls.has(baseUrl)) return;
      const headers = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join('\n');
      this.answers.push({ where: `${res.status} answer to ${path}`, text: `${headers}\n\n${res.text}` });
    });
  }

  /** Values that must never come back; answers them for convenience. */
  add<T extends string>(...values: T[]): T[] {
    for (const value of values) this.secrets.add(value);
    return values;
  }

  /** Another platform (a gateway of the suite's own) whose answers count too. */
  watchUrl(baseUrl: string): void {
    this.platformUrls.add(baseUrl);
  }

  /** An answer the suite read without `call` (a stream). */
  record(where: string, text: string): void {
    this.answers.push({ where, text });
  }

  /** Where any secret turned up, the secret itself shown redacted; empty when nowhere. */
  async leaks(): Promise<string[]> {
    this.stop();
    // Processes' output reaches the log files through pipes: give the last lines a moment.
    await sleep(500);
    const redactor = new SecretRedactor(this.secrets);
    const found: string[] = [];
    const search = (where: string, text: string) => {
      if (redactor.whole(text) === text) return;
      const lines = text.split('\n').filter((line) => redactor.whole(line) !== line);
      const shown = lines.length ? lines : [text];
      for (const line of shown.slice(0, 3)) found.push(`${where}: ${redactor.text(line).slice(0, 300)}`);
    };
    for (const { where, text } of this.answers) search(where, text);
    for (const dir of this.logDirs) {
      for (const file of await readdir(dir).catch(() => [])) search(`log ${file}`, await readFile(join(dir, file), 'utf8'));
    }
    return found;
  }
}
