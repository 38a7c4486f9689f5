import 'reflect-metadata';
import { Worker, parentPort, threadId } from 'node:worker_threads';
import type { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import {
  addMetricsSource,
  enableMetrics,
  eventLoopDelayProbe,
  metricsEnabled,
  metricsJson,
  reportThreadLag,
  stopTracing,
  type MetricsSource,
  type ServiceName,
} from '@platform/common';
import { PinoNestLogger } from '../logging/nest-logger.js';
import { PlatformModule } from '../platform/platform.module.js';
import { prepareService } from './bootstrap.js';

/** Messages between a service and its thread; the service asks for the thread's series at each scrape. */
type ToThread = 'stop' | { metrics: number };
type FromThread = 'ready' | { metrics: number; series: Awaited<ReturnType<MetricsSource>> };

export interface ServiceThreadOptions {
  service: ServiceName;
  /** What the thread runs: its providers start with it (work-queue consumers, jobs); it serves no HTTP. */
  module: Type<unknown>;
  /** Names the thread in its log lines. */
  name: string;
}

/**
 * The entry of a service's worker thread (its file is a single call to this): the service's
 * configuration, its own database pool and NATS connection, and `module` in a Nest application
 * context. It stops, closing all of these, when the service tells it to.
 */
export async function runServiceThread(options: ServiceThreadOptions): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('runServiceThread runs in a worker thread');
  const prepared = await prepareService(options.service);
  const { definition, config, infrastructure } = prepared;
  const logger = prepared.logger.child({ thread: options.name });
  // The thread's series are summed into the service's /metrics (threadMetrics); the process's own (CPU, memory) are the service's.
  // Its own event loop's lag is not in them (prom-client watches the main thread's): nodejs_thread_eventloop_lag_seconds{thread}.
  if (config.METRICS_ENABLED) {
    enableMetrics(definition.name, { defaults: false });
    const probe = eventLoopDelayProbe();
    reportThreadLag(options.name, () => probe.take());
  }
  const app = await NestFactory.createApplicationContext(
    PlatformModule.forService({ definition, config, logger, dataSource: infrastructure.dataSource, nats: infrastructure.nats, module: options.module }),
    { logger: new PinoNestLogger(logger), abortOnError: false },
  );
  await app.init();
  port.on('message', (message: ToThread) => {
    if (typeof message === 'object') {
      void metricsJson().then((series) => port.postMessage({ metrics: message.metrics, series } satisfies FromThread));
      return;
    }
    if (message !== 'stop') return;
    void (async () => {
      await app.close();
      await infrastructure.nats.close().catch(() => undefined);
      await stopTracing();
      // The service waits for the thread's exit: with its port closed, nothing keeps it alive.
      port.close();
    })();
  });
  logger.info({ thread_id: threadId }, `${options.name} thread started`);
  port.postMessage('ready' satisfies FromThread);
}

/**
 * A worker thread of the service (see runServiceThread), started and stopped with it: work that
 * needs its own event loop, so that it never slows the service's answers. A thread that dies
 * ends the process, which its supervisor restarts: a service must not run on without it.
 */
export class ServiceThread {
  private worker?: Worker;
  private stopping = false;
  private stopMetrics?: () => void;
  private scrapes = 0;

  constructor(
    private readonly entry: URL,
    private readonly name: string,
    private readonly logger: Pick<Logger, 'error' | 'warn'>,
  ) {}

  start(): Promise<void> {
    const worker = new Worker(this.entry);
    this.worker = worker;
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: FromThread) => {
        if (message === 'ready') {
          ready = true;
          if (metricsEnabled()) this.stopMetrics = addMetricsSource(() => this.threadMetrics());
          resolve();
        }
      });
      worker.once('error', (error) => {
        if (!ready) return reject(error);
        this.logger.error({ err: error.message }, `${this.name} thread failed: exiting`);
        process.exit(1);
      });
      worker.once('exit', (code) => {
        if (this.stopping) return;
        if (!ready) return reject(new Error(`${this.name} thread exited with code ${code} before it was ready`));
        this.logger.error({ code }, `${this.name} thread exited: exiting`);
        process.exit(1);
      });
    });
  }

  /** The thread's series, for the service's scrape; none when it does not answer within 2 s. */
  private threadMetrics(): ReturnType<MetricsSource> {
    const worker = this.worker!;
    const id = ++this.scrapes;
    return new Promise((resolve) => {
      const timer = setTimeout(() => done([]), 2000);
      const onMessage = (message: FromThread) => {
        if (typeof message === 'object' && message.metrics === id) done(message.series);
      };
      const done = (series: Awaited<ReturnType<MetricsSource>>) => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        resolve(series);
      };
      worker.on('message', onMessage);
      worker.postMessage({ metrics: id } satisfies ToThread);
    });
  }

  /** Asks the thread to finish what it is doing and close; ends it after `timeoutMs` regardless. */
  async stop(timeoutMs: number): Promise<void> {
    const worker = this.worker;
    if (!worker || this.stopping) return;
    this.stopping = true;
    this.stopMetrics?.();
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage('stop' satisfies ToThread);
    const timer = setTimeout(() => {
      this.logger.warn(`${this.name} thread did not stop within ${timeoutMs} ms: ending it`);
      void worker.terminate();
    }, timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
