import { describe, expect, it } from '@jest/globals';
import { HealthRegistry } from './health.registry.js';

const pass = (): Promise<void> => Promise.resolve();

describe('HealthRegistry', () => {
  it('is UP with no checks', async () => {
    expect(await new HealthRegistry('svc').report()).toEqual({ status: 'UP', service: 'svc', components: {} });
  });

  it('is UP when every check passes', async () => {
    const registry = new HealthRegistry('run');
    registry.register('database', pass);
    registry.register('nats', pass);
    const report = await registry.report();
    expect(report.status).toBe('UP');
    expect(report.service).toBe('run');
    expect(Object.keys(report.components).sort()).toEqual(['database', 'nats']);
    for (const component of Object.values(report.components)) {
      expect(component.status).toBe('UP');
      expect(component.latency_ms).toBeGreaterThanOrEqual(0);
      expect(component).not.toHaveProperty('error');
    }
  });

  it("is DOWN with the failing component's error, without leaking the cause", async () => {
    const registry = new HealthRegistry('run');
    registry.register('database', () => Promise.reject(new Error('password authentication failed for user "platform_app" at 10.0.0.5')));
    registry.register('nats', pass);
    const report = await registry.report();
    expect(report.status).toBe('DOWN');
    expect(report.components.database).toMatchObject({ status: 'DOWN', error: 'database unreachable' });
    expect(report.components.nats.status).toBe('UP');
    expect(JSON.stringify(report)).not.toMatch(/password|10\.0\.0\.5|platform_app/);
  });

  it('is DOWN when a check throws synchronously', async () => {
    const registry = new HealthRegistry('run');
    registry.register('cache', () => {
      throw new Error('sync failure');
    });
    const report = await registry.report();
    expect(report.components.cache).toMatchObject({ status: 'DOWN', error: 'cache unreachable' });
  });

  it('marks a check that never answers DOWN after the timeout', async () => {
    const registry = new HealthRegistry('run', 30);
    registry.register('nats', () => new Promise<void>(() => undefined));
    registry.register('database', pass);
    const started = Date.now();
    const report = await registry.report();
    const elapsed = Date.now() - started;
    expect(report.status).toBe('DOWN');
    expect(report.components.nats).toMatchObject({ status: 'DOWN', error: 'nats unreachable' });
    expect(report.components.database.status).toBe('UP');
    expect(elapsed).toBeGreaterThanOrEqual(25);
    // Bounded by the check's time-out, not by the check (which never answers); room for a loaded machine.
    expect(elapsed).toBeLessThan(5000);
  });

  it('replaces a check registered twice under the same name', async () => {
    const registry = new HealthRegistry('run');
    registry.register('database', () => Promise.reject(new Error('down')));
    registry.register('database', pass);
    expect((await registry.report()).status).toBe('UP');
  });
});
