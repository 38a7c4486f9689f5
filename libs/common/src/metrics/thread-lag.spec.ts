import { describe, expect, it } from '@jest/globals';
import { eventLoopDelayProbe, reportThreadLag } from './thread-lag.js';
import { enableMetrics, metricsRegistry } from './metrics.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function block(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // a busy loop: the event loop cannot turn
  }
}

async function lagOf(thread: string): Promise<number | undefined> {
  const family = (await metricsRegistry.getMetricsAsJSON()).find((f) => f.name === 'nodejs_thread_eventloop_lag_seconds');
  return family?.values.find((v) => v.labels.thread === thread)?.value;
}

describe('thread event-loop lag', () => {
  it('measures a blocked loop, and starts again from nothing after each take', async () => {
    const probe = eventLoopDelayProbe(10);
    try {
      await sleep(60);
      block(250);
      await sleep(60);
      expect(probe.take()).toBeGreaterThanOrEqual(0.2);
      await sleep(100);
      // the blocked period is behind: the next take sees only a loop that turns freely
      expect(probe.take()).toBeLessThan(0.2);
      // a take right after a take (no sample in between) keeps the figure instead of dropping the series
      const free = probe.take();
      expect(free).toBeLessThan(0.2);
      expect(probe.take()).toBe(free);
    } finally {
      probe.stop();
    }
  });

  it("reports each thread's lag by name at each scrape, and nothing once removed", async () => {
    enableMetrics('unit', { defaults: false });
    const thread: { lag?: number } = {};
    const remove = reportThreadLag('unit-thread', () => thread.lag);
    expect(await lagOf('unit-thread')).toBeUndefined();
    thread.lag = 0.125;
    expect(await lagOf('unit-thread')).toBe(0.125);
    expect(metricsRegistry.getSingleMetric('nodejs_thread_eventloop_lag_seconds')).toMatchObject({ aggregator: 'max' });
    remove();
    expect(await lagOf('unit-thread')).toBeUndefined();
  });
});
