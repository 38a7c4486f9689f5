import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The pids of the e2e platform's live processes named `name` (`run`, `trigger`, …), from the pid
 * files the process runner keeps in `pidDir`: tests that kill or restart a service find it here.
 * A pid file is removed by the process that started the service when the service exits; when that
 * was a Jest worker since recycled (workerIdleMemoryLimit), nobody is left to remove it, so a file
 * whose process is gone is skipped and removed here.
 */
export function processIds(pidDir: string, name: string): number[] {
  return readdirSync(pidDir)
    .filter((file) => file.startsWith(`${name}.`) && file.endsWith('.pid'))
    .filter((file) => {
      if (isAlive(Number(file.split('.')[1]))) return true;
      rmSync(join(pidDir, file), { force: true });
      return false;
    })
    .map((file) => Number(file.split('.')[1]));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until a process has gone (after a SIGKILL or SIGTERM), or fails after `timeoutMs`. */
export async function processExited(pid: number, timeoutMs = 5000): Promise<void> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
  }
  throw new Error(`process ${pid} did not exit within ${timeoutMs} ms`);
}
