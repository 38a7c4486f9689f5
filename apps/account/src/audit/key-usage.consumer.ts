import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SystemDb } from '@platform/db';
import { KEY_USES_QUEUE, NATS_CONNECTION, ensureWorkQueue, startWorker, type KeyUse, type KeysUsedBatch, type Worker } from '@platform/messaging';
import { auditRepository } from './audit.repository.js';

/**
 * Writes the key uses every service publishes into the audit log and `last_used_at`, a batch
 * per statement. A batch spans tenants, hence the system path; a redelivered batch is harmless
 * (each use has its id, inserted once).
 */
@Injectable()
export class KeyUsageConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(KeyUsageConsumer.name);
  private worker?: Worker;

  constructor(
    private readonly system: SystemDb,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, KEY_USES_QUEUE);
    this.worker = await startWorker<KeysUsedBatch>(
      this.nc,
      KEY_USES_QUEUE,
      async (item) => {
        await this.write(item.data.uses);
        return { ack: true };
      },
      { concurrency: 4, onError: (error) => this.logger.error(`could not record key uses: ${String(error)}`) },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }

  async write(uses: KeyUse[]): Promise<void> {
    if (!uses.length) return;
    await this.system.run('record API key uses', (m) => auditRepository.recordUses(m, uses), 'debug');
  }
}
