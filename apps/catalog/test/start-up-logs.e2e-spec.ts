import { afterAll, describe, expect, it } from '@jest/globals';
import { e2eEnvironment, freePort, serviceEntry, startProcess, type ManagedProcess } from '@platform/testing';

const env = e2eEnvironment();

/** Lines a service may print at info before it serves; NestJS's own (a line per module and per route) are at debug. */
const MAX_START_UP_LINES = 6;

describe('start-up logging', () => {
  let service: ManagedProcess | undefined;

  afterAll(async () => {
    await service?.stop();
  });

  it('says little at info before a service serves: its own lines, not a line per module and route', async () => {
    const [port, metricsPort] = [await freePort(), await freePort()];
    const lines: string[] = [];
    // A second catalog replica of the suite's platform, at the default level.
    service = await startProcess({
      name: 'catalog-start-up-logs',
      entry: serviceEntry('catalog'),
      env: { ...env.serviceEnv.catalog, PORT: String(port), METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' },
      healthUrl: `http://127.0.0.1:${port}/actuator/health`,
      pidDir: env.pidDir,
      onLine: (line) => lines.push(line),
    });
    const levels = lines.map((line) => {
      try {
        return (JSON.parse(line) as { level?: string }).level ?? 'plain';
      } catch {
        return 'plain';
      }
    });
    expect({ lines: lines.length <= MAX_START_UP_LINES, printed: lines }).toEqual({ lines: true, printed: expect.any(Array) });
    expect(lines.filter((_, i) => levels[i] !== 'info' && levels[i] !== 'warn')).toEqual([]);
    expect(lines.some((line) => line.includes('catalog listening on'))).toBe(true);
  });
});
