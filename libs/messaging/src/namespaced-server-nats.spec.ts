import { describe, expect, it } from '@jest/globals';
import { enableMetrics, metricsRegistry } from '@platform/common';
import { firstValueFrom, of, throwError } from 'rxjs';
import { configureNamespace } from './namespace.js';
import { NamespacedServerNats } from './namespaced-server-nats.js';

/** The count of nats_handled_duration_seconds for exactly these labels, from the registry's JSON. */
async function handled(subject: string, outcome: string): Promise<number> {
  const family = (await metricsRegistry.getMetricsAsJSON()).find((f) => f.name === 'nats_handled_duration_seconds');
  const value = family?.values.find(
    (v) => (v as { metricName?: string }).metricName === 'nats_handled_duration_seconds_count' && v.labels.subject === subject && v.labels.outcome === outcome,
  );
  return value?.value ?? 0;
}

describe('NamespacedServerNats handler metrics', () => {
  it('times each handled message by its subscription pattern without the namespace, with its outcome', async () => {
    enableMetrics('unit', { defaults: false });
    configureNamespace('unit-ns');
    try {
      const server = new NamespacedServerNats({ servers: 'nats://127.0.0.1:4222' });
      server.addHandler('unit.things.get', (data: unknown) => Promise.resolve(of({ got: data })));
      server.addHandler('unit.things.refuse', () => Promise.resolve(throwError(() => ({ code: 'not_found', status: 404, message: 'no' }))));
      server.addHandler('unit.things.crash', () => Promise.reject(new Error('boom')));
      server.addHandler('unit.events.>', () => Promise.resolve(undefined), true);

      // The channel Nest passes is the subscription's (namespaced) pattern, never the message's subject.
      const get = server.getHandlerByPattern('unit-ns.unit.things.get')!;
      expect(await firstValueFrom((await get({ id: 1 })) as never)).toEqual({ got: { id: 1 } });
      await expect(firstValueFrom((await server.getHandlerByPattern('unit-ns.unit.things.refuse')!({})) as never)).rejects.toMatchObject({ status: 404 });
      await expect(server.getHandlerByPattern('unit-ns.unit.things.crash')!({})).rejects.toThrow('boom');
      const event = server.getHandlerByPattern('unit-ns.unit.events.>')!;
      await event({});
      // The wrapper keeps what Nest reads off a handler.
      expect(event.isEventHandler).toBe(true);

      expect(await handled('unit.things.get', 'ok')).toBe(1);
      expect(await handled('unit.things.refuse', 'rejected')).toBe(1);
      expect(await handled('unit.things.crash', 'failed')).toBe(1);
      expect(await handled('unit.events.>', 'ok')).toBe(1);
      const text = await metricsRegistry.metrics();
      expect(text).not.toContain('unit-ns');
    } finally {
      configureNamespace('');
    }
  });
});
