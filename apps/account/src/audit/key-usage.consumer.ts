import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SystemDb } from '@platform/db';
import { KEY_USES_QUEUE, NATS_CONNECTION, QueueConsumer, type KeyUse, type KeysUsedBatch, type WorkItem, type WorkResult } from '@platform/messaging';
import { auditRepository } from './audit.repository.js';

/**
 * Writes the key uses every service publishes into the audit log and `last_used_at`, a batch
 * per statement. A batch spans tenants, hence the system path; a redelivered batch is harmless
 * (each use has its id, inserted once).
 */
@Injectable()
export class KeyUsageConsumer extends QueueConsumer<KeysUsedBatch> {
  constructor(
    private readonly system: SystemDb,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    super(nc, KEY_USES_QUEUE, { concurrency: 4, failure: 'could not record key uses' });
  }

  protected async handle(item: WorkItem<KeysUsedBatch>): Promise<WorkResult> {
    await this.write(item.data.uses);
    return { ack: true };
  }

  async write(uses: KeyUse[]): Promise<void> {
    if (!uses.length) return;
    await this.system.run('record API key uses', (m) => auditRepository.recordUses(m, uses), 'debug');
  }
}
