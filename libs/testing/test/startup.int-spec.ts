import { spawn } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { freePort, serviceEntry } from '../src/index.js';

/** Starts a service with the given settings and collects what it prints until it exits. */
function runService(env: Record<string, string>): Promise<{ code: number | null; output: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [serviceEntry('catalog')], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output, ms: Date.now() - started });
    });
  });
}

describe('service start-up with an unreachable dependency', () => {
  it('stops within seconds naming PostgreSQL, its address and how to start it', async () => {
    const port = await freePort();
    const result = await runService({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/platform`, PORT: String(await freePort()) });
    // Exit code 1 is its own exit, before the 20 s kill; the bound rules out retrying for long.
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(15_000);
    expect(result.output).toContain(`Cannot reach PostgreSQL at 127.0.0.1:${port}`);
    expect(result.output).toContain('docker compose up -d postgres');
  });

  it('stops within seconds naming NATS, its address and how to start it', async () => {
    const port = await freePort();
    const result = await runService({ NATS_URL: `nats://127.0.0.1:${port}`, PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.ms).toBeLessThan(15_000);
    expect(result.output).toContain(`Cannot reach NATS at nats://127.0.0.1:${port}`);
    expect(result.output).toContain('docker compose up -d nats');
  });

  it('stops on a bad setting, naming it and the value given', async () => {
    const result = await runService({ PORT: 'eighty', LOG_LEVEL: 'loud' });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/PORT: .*\(got 'eighty'\)/);
    expect(result.output).toMatch(/LOG_LEVEL: .*\(got 'loud'\)/);
    expect(result.output).not.toMatch(/\n\s+at .+\.js:\d+/); // a message, not a stack trace
  });
});
