import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { processIds } from './e2e-processes.js';

describe('processIds', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'pids-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('skips and removes the pid file of a process that is gone (its starter, a recycled Jest worker, could not)', () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(join(dir, `run.${gone}.pid`), String(gone));
    writeFileSync(join(dir, `run.${process.pid}.pid`), String(process.pid));
    writeFileSync(join(dir, `trigger.${process.pid}.pid`), String(process.pid));

    expect(processIds(dir, 'run')).toEqual([process.pid]);
    expect(existsSync(join(dir, `run.${gone}.pid`))).toBe(false);
    expect(existsSync(join(dir, `trigger.${process.pid}.pid`))).toBe(true);
  });
});
