import { Injectable } from '@nestjs/common';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import { receivingRepository, type DeliveryWrite, type RecordedDelivery } from './receiving.repository.js';

/**
 * Writes the deliveries that arrive together as one statement (the platform's TenantBatcher:
 * those of one tenant context in the same turn of the event loop): under a burst, many share one
 * commit, the synchronous commit each 202 waits for.
 */
@Injectable()
export class DeliveryWriter {
  private readonly batcher: TenantBatcher<DeliveryWrite, RecordedDelivery | undefined>;

  constructor(db: TenantDb) {
    this.batcher = new TenantBatcher(async (ctx, writes) => {
      const rows = await receivingRepository.recordMany(db, ctx, writes);
      return writes.map((_, i) => rows.get(i));
    });
  }

  /** The delivery recorded, the first delivery for a duplicate key, or undefined when the webhook changed. */
  write(ctx: TenantContext, write: DeliveryWrite): Promise<RecordedDelivery | undefined> {
    return this.batcher.submit(ctx, write);
  }
}
