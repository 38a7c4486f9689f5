import { describe, expect, it } from '@jest/globals';
import { dependencies, ensureDependencies, planDependencies, type Dependency, type DependencyTools } from './dependencies.js';

const deps = dependencies({});

function tools(up: Set<string>, docker: boolean, runs: string[][], startsOnRun = true): DependencyTools {
  return {
    probe: (d: Dependency) => Promise.resolve(up.has(d.service)),
    docker: () => docker,
    run: (argv) => {
      runs.push([...argv]);
      if (startsOnRun) for (const d of deps) up.add(d.service);
      return Promise.resolve(0);
    },
    log: () => undefined,
    sleep: () => Promise.resolve(),
  };
}

describe('npm start and its dependencies', () => {
  it('reads where PostgreSQL, NATS and Redis are from their URLs', () => {
    expect(dependencies({ DATABASE_URL: 'postgres://u@db:6543/x', NATS_URL: 'nats://n:1', REDIS_URL: 'redis://r' })).toEqual([
      { service: 'postgres', host: 'db', port: 6543 },
      { service: 'nats', host: 'n', port: 1 },
      { service: 'redis', host: 'r', port: 6379 },
    ]);
  });

  it('goes on when all are reachable, and leaves the old message when Docker is missing', () => {
    expect(planDependencies([], true, true)).toEqual({ action: 'go' });
    expect(planDependencies(deps, false, true).action).toBe('as-before');
  });

  it('names the compose command when Docker is there, and runs it with --with-deps', async () => {
    expect(planDependencies([deps[2]], true, false)).toMatchObject({
      action: 'advise',
      message: expect.stringContaining('docker compose up -d postgres nats redis'),
    });
    const runs: string[][] = [];
    await expect(ensureDependencies(deps, false, tools(new Set(['postgres']), true, runs))).rejects.toThrow(/nats \(127\.0\.0\.1:4222\), redis/);
    expect(runs).toEqual([]);
    await ensureDependencies(deps, true, tools(new Set(['postgres']), true, runs));
    expect(runs).toEqual([['docker', 'compose', 'up', '-d', 'postgres', 'nats', 'redis']]);
  });

  it('gives up when the ports do not open after the compose command', async () => {
    await expect(ensureDependencies(deps, true, tools(new Set(), true, [], false), 0)).rejects.toThrow(/still not reachable/);
  });
});
