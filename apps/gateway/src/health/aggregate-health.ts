import type { ServiceName } from '@platform/common';

export interface ServiceHealth {
  status: 'UP' | 'DOWN';
  latency_ms: number;
  components?: Record<string, unknown>;
  error?: string;
}

export interface PlatformHealth {
  status: 'UP' | 'DOWN';
  services: Record<string, ServiceHealth>;
}

/** Asks every service in parallel; the platform is UP only when each one is. */
export async function aggregateHealth(upstreams: Record<ServiceName, URL>, timeoutMs: number): Promise<PlatformHealth> {
  const entries = await Promise.all(
    (Object.entries(upstreams) as [ServiceName, URL][]).map(async ([name, base]) => {
      const started = performance.now();
      const latency = () => Math.round((performance.now() - started) * 100) / 100;
      try {
        const res = await fetch(new URL('/actuator/health', base), { signal: AbortSignal.timeout(timeoutMs) });
        const body = (await res.json().catch(() => ({}))) as { components?: Record<string, unknown> };
        const health: ServiceHealth = { status: res.status === 200 ? 'UP' : 'DOWN', latency_ms: latency(), components: body.components };
        return [name, health] as const;
      } catch (error) {
        const timedOut = (error as Error).name === 'TimeoutError';
        return [name, { status: 'DOWN', latency_ms: latency(), error: timedOut ? 'timed out' : 'unreachable' } satisfies ServiceHealth] as const;
      }
    }),
  );
  const services = Object.fromEntries(entries);
  return { status: entries.every(([, h]) => h.status === 'UP') ? 'UP' : 'DOWN', services };
}
