import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Logger } from 'pino';
import { ROOT_LOGGER, ServiceThread } from '@platform/service';

/** How long the delivery thread may take to finish its attempts at shutdown. */
const STOP_TIMEOUT_MS = 15_000;

/**
 * Runs the delivery worker in a thread of its own (NOTIFICATION_DELIVERY_THREAD): accepting sends
 * and delivering them then each have an event loop, so a burst of deliveries does not slow the
 * answers to senders, and the service uses a second core.
 */
@Injectable()
export class DeliveryThreadHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly thread: ServiceThread;

  constructor(@Inject(ROOT_LOGGER) logger: Logger) {
    this.thread = new ServiceThread(new URL('./delivery.thread.js', import.meta.url), 'delivery', logger);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.thread.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.thread.stop(STOP_TIMEOUT_MS);
  }
}
