import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export interface ProcessSpec {
  name: string;
  /** Absolute path of the compiled entry (e.g. apps/run/dist/src/main.js). */
  entry: string;
  /** Node.js options before the entry (a service's nodeArgs). */
  nodeArgs?: readonly string[];
  env: Record<string, string>;
  /** Polled until it answers 200. */
  healthUrl: string;
  startTimeoutMs?: number;
  /** Where a pid file is kept, so a teardown in another process can stop what a test started. */
  pidDir?: string;
  /** Each output line, e.g. to print with a prefix; otherwise only the tail is kept for errors. */
  onLine?: (line: string, stream: 'stdout' | 'stderr') => void;
}

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  /** The last lines the process printed, for failure messages. */
  tail(): string;
  /** SIGTERM, then SIGKILL after the grace period; resolves when the process has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once: a crash. */
  kill(): Promise<void>;
  exited: Promise<number | null>;
}

const TAIL_LINES = 80;

export async function waitForHealth(url: string, timeoutMs: number, isAlive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    if (!isAlive()) throw new Error(`process exited before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} not healthy after ${timeoutMs} ms (${last})`);
}

/** Starts a compiled service as a real process and waits until its health check answers 200. */
export async function startProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  // PLATFORM_NODE_ARGS: options for every service process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
  // to profile a benchmark (Node.js refuses such options in NODE_OPTIONS).
  const extra = (process.env.PLATFORM_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(process.execPath, [...extra, ...(spec.nodeArgs ?? []), spec.entry], {
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (stream: 'stdout' | 'stderr') => {
    let partial = '';
    return (chunk: Buffer) => {
      const text = partial + chunk.toString('utf8');
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        if (lines.length > TAIL_LINES) lines.shift();
        spec.onLine?.(line, stream);
      }
    };
  };
  child.stdout.on('data', collect('stdout'));
  child.stderr.on('data', collect('stderr'));
  let alive = true;
  const exited = new Promise<number | null>((resolveExit) => {
    child.once('exit', (code) => {
      alive = false;
      resolveExit(code);
    });
  });
  const pidFile = spec.pidDir ? join(spec.pidDir, `${spec.name}.${child.pid}.pid`) : undefined;
  if (pidFile) {
    mkdirSync(spec.pidDir!, { recursive: true });
    writeFileSync(pidFile, String(child.pid));
    void exited.then(() => rmSync(pidFile, { force: true }));
  }
  const managed: ManagedProcess = {
    name: spec.name,
    child,
    exited,
    tail: () => lines.join('\n'),
    async stop(graceMs = 10_000) {
      if (!alive) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (!alive) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    // A process that dies fails at once (isAlive); the deadline is for one that hangs, and leaves a
    // loaded 2-core machine starting fourteen processes room (seen: 30 s was not enough).
    await waitForHealth(spec.healthUrl, spec.startTimeoutMs ?? 90_000, () => alive);
  } catch (error) {
    await managed.kill();
    throw new Error(`${spec.name} did not start: ${(error as Error).message}\n--- last output ---\n${managed.tail()}`, { cause: error });
  }
  return managed;
}
