import { readdirSync } from 'node:fs';

/**
 * The pids of the e2e platform's processes named `name` (`run`, `trigger`, …), from the pid files
 * the process runner keeps in `pidDir`: tests that kill or restart a service find it here.
 */
export function processIds(pidDir: string, name: string): number[] {
  return readdirSync(pidDir)
    .filter((file) => file.startsWith(`${name}.`) && file.endsWith('.pid'))
    .map((file) => Number(file.split('.')[1]));
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
