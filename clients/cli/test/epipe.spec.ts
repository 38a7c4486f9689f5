import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';

const MAIN = resolve(import.meta.dirname, '../src/main.js');

describe('a reader that closes the pipe early (`platform … | head -1`)', () => {
  it('ends the command quietly: no EPIPE stack trace, exit code 0', async () => {
    const child = spawn(process.execPath, [MAIN, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
