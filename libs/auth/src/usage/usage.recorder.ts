import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { AccountSubjects, KEY_USES_QUEUE, NATS_CONNECTION, enqueueWork, ensureWorkQueue, messageContext, type KeyUse } from '@platform/messaging';
import { AUTH_OPTIONS, type AuthOptions } from '../auth.options.js';

const MAX_BUFFER = 50_000;

/**
 * Records each use of an API key without touching the request path: uses are buffered in
 * memory and published in batches to a JetStream stream the account service consumes, so a
 * request costs no database round trip and a batch survives an account restart. A clean
 * shutdown flushes what is buffered before NATS is drained.
 */
@Injectable()
export class UsageRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(UsageRecorder.name);
  private buffer: KeyUse[] = [];
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;
  private streamReady = false;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.options.usageFlushIntervalMs);
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  record(use: Omit<KeyUse, 'id'>): void {
    if (this.buffer.length >= MAX_BUFFER) {
      this.buffer.shift();
      this.logger.warn('key usage buffer full: dropping the oldest record');
    }
    this.buffer.push({ id: randomUUID(), ...use });
    if (this.buffer.length >= this.options.usageMaxBatch) void this.flush();
  }

  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => (this.flushing = undefined));
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.buffer.length) {
      const batch = this.buffer.splice(0, this.options.usageMaxBatch);
      try {
        if (!this.streamReady) {
          await ensureWorkQueue(this.nc, KEY_USES_QUEUE);
          this.streamReady = true;
        }
        // The first use's id makes a retried publish of the same batch a duplicate JetStream drops.
        await enqueueWork(
          this.nc,
          AccountSubjects.keysUsed,
          { uses: batch },
          batch[0].id,
          messageContext(null, { actor: 'system:usage-recorder', requestId: batch[0].requestId }),
        );
      } catch (error) {
        this.buffer = batch.concat(this.buffer).slice(0, MAX_BUFFER);
        this.logger.warn(`could not publish ${batch.length} key uses, will retry: ${(error as Error).message}`);
        return;
      }
    }
  }
}
