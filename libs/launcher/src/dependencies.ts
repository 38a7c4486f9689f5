import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';

/** The infrastructure `npm start` needs, named as docker-compose.yml names its services. */
export interface Dependency {
  service: 'postgres' | 'nats' | 'redis';
  host: string;
  port: number;
}

export const COMPOSE_COMMAND = ['docker', 'compose', 'up', '-d', 'postgres', 'nats', 'redis'] as const;

export function dependencies(env: NodeJS.ProcessEnv): Dependency[] {
  const at = (service: Dependency['service'], url: string, port: number): Dependency => {
    const u = new URL(url);
    return { service, host: u.hostname || '127.0.0.1', port: u.port ? Number(u.port) : port };
  };
  const redis = env.REDIS_URL || 'redis://127.0.0.1:6379';
  return [
    at('postgres', env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/platform', 5432),
    at('nats', env.NATS_URL || 'nats://127.0.0.1:4222', 4222),
    // Redis behind sentinels (redis+sentinel://…) is not one port to probe, nor compose's to start.
    ...(redis.startsWith('redis+sentinel:') ? [] : [at('redis', redis, 6379)]),
  ];
}

/** Whether something accepts TCP connections at host:port within `timeoutMs`. */
export function reachable({ host, port }: Dependency, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Whether `command` is an executable file in one of PATH's folders. */
export function onPath(command: string, path = process.env.PATH ?? ''): boolean {
  return path
    .split(delimiter)
    .filter(Boolean)
    .some((dir) => {
      try {
        accessSync(join(dir, command), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

export type DependencyPlan =
  | { action: 'go' }
  /** Docker is there: say the command (or, with --with-deps, run it). */
  | { action: 'advise'; missing: Dependency[]; message: string }
  | { action: 'compose'; missing: Dependency[] }
  /** No Docker: the services' own connection errors say what is missing, as before. */
  | { action: 'as-before'; missing: Dependency[] };

/** What `npm start` does about unreachable dependencies: decided here, without side effects. */
export function planDependencies(missing: Dependency[], docker: boolean, withDeps: boolean): DependencyPlan {
  if (!missing.length) return { action: 'go' };
  if (!docker) return { action: 'as-before', missing };
  if (withDeps) return { action: 'compose', missing };
  const names = missing.map((d) => `${d.service} (${d.host}:${d.port})`).join(', ');
  return {
    action: 'advise',
    missing,
    message: `not reachable: ${names}. Start them with\n  ${COMPOSE_COMMAND.join(' ')}\nor run \`npm start -- --with-deps\` to have it done.`,
  };
}

export interface DependencyTools {
  probe: (d: Dependency) => Promise<boolean>;
  docker: () => boolean;
  /** Runs a command in the foreground; resolves to its exit code. */
  run: (argv: readonly string[]) => Promise<number>;
  log: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Before `npm start` goes on: every dependency reachable, or, with Docker on PATH, the compose
 * command said (or run with --with-deps, then the ports awaited). Throws with the message to show.
 */
export async function ensureDependencies(list: Dependency[], withDeps: boolean, tools: DependencyTools, waitMs = 60_000): Promise<void> {
  const missing = (await Promise.all(list.map(async (d) => ((await tools.probe(d)) ? undefined : d)))).filter((d) => d !== undefined);
  const plan = planDependencies(missing, missing.length > 0 && tools.docker(), withDeps);
  if (plan.action === 'go' || plan.action === 'as-before') return;
  if (plan.action === 'advise') throw new Error(plan.message);
  tools.log(`==> starting ${plan.missing.map((d) => d.service).join(', ')}: ${COMPOSE_COMMAND.join(' ')}`);
  const code = await tools.run(COMPOSE_COMMAND);
  if (code !== 0) throw new Error(`\`${COMPOSE_COMMAND.join(' ')}\` failed (exit ${code})`);
  const sleep = tools.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (const end = Date.now() + waitMs; ; await sleep(500)) {
    const still = (await Promise.all(plan.missing.map(async (d) => ((await tools.probe(d)) ? undefined : d)))).filter((d) => d !== undefined);
    if (!still.length) return;
    if (Date.now() > end) throw new Error(`still not reachable after ${waitMs / 1000} s: ${still.map((d) => `${d.service} (${d.host}:${d.port})`).join(', ')}`);
  }
}
