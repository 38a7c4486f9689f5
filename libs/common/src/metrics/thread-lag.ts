import { monitorEventLoopDelay } from 'node:perf_hooks';
import { gauge } from './metrics.js';

/**
 * Event-loop lag of a process's worker threads (the notification delivery thread, the run
 * service's code sandboxes). prom-client's `nodejs_eventloop_lag_*` measure only the main thread's
 * loop; a thread that falls behind (a slow delivery, a long script) shows here instead, by thread.
 */

/** Readers of each thread's lag, by the thread's name (a word: `delivery`, `code-sandbox`). */
const readers = new Map<string, () => number | undefined>();

gauge({
  name: 'nodejs_thread_eventloop_lag_seconds',
  help: "p99 of a worker thread's event-loop delay since the previous scrape (as nodejs_eventloop_lag_p99_seconds for the main thread), by thread",
  labelNames: ['thread'] as const,
  // A thread's series reach its service's scrape beside the service's own: never add two values up.
  aggregator: 'max',
  collect() {
    this.reset();
    for (const [thread, read] of readers) {
      const seconds = read();
      if (seconds !== undefined) this.set({ thread }, seconds);
    }
  },
});

/** Reports a thread's lag at each scrape, as `read` answers it (nothing while it answers undefined); answers the removal. */
export function reportThreadLag(thread: string, read: () => number | undefined): () => void {
  readers.set(thread, read);
  return () => readers.delete(thread);
}

export interface EventLoopDelayProbe {
  /** p99 of the loop's delay since the previous take (the previous figure when no sample came since), in seconds; undefined before any sample. */
  take(): number | undefined;
  stop(): void;
}

/** The event-loop delay of the thread that calls it (perf_hooks, sampled every 20 ms as prom-client's own). */
export function eventLoopDelayProbe(resolutionMs = 20): EventLoopDelayProbe {
  const histogram = monitorEventLoopDelay({ resolution: resolutionMs });
  histogram.enable();
  // Two scrapes closer than one sample apart (two Prometheus servers, a test) would otherwise find
  // no sample and drop the series for a moment: the last figure stands until a new one exists.
  let last: number | undefined;
  return {
    take() {
      if (histogram.count > 0) {
        last = histogram.percentile(99) / 1e9;
        histogram.reset();
      }
      return last;
    },
    stop: () => histogram.disable(),
  };
}
