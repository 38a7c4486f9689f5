import { Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { receivingRepository, type DeliveryWrite, type RecordedDelivery } from './receiving.repository.js';

interface Pending {
  write: DeliveryWrite;
  resolve: (row: RecordedDelivery | undefined) => void;
  reject: (error: unknown) => void;
}

interface Group {
  ctx: TenantContext;
  queue: Pending[];
  inFlight: number;
}

/** Statements in flight per tenant environment: the next batch fills while these commit. */
const PARALLEL = 2;
const MAX_BATCH = 100;

/**
 * Writes concurrent deliveries together: a delivery that arrives while its tenant's statements
 * are in flight waits for the next batch, which goes as soon as one of them is done. Alone it is
 * written at once, so batching adds no delay; under a burst, many deliveries share one statement
 * and one commit (the synchronous commit each 202 waits for).
 */
@Injectable()
export class DeliveryWriter {
  private readonly groups = new Map<string, Group>();

  constructor(private readonly db: TenantDb) {}

  /** The delivery recorded, the first delivery for a duplicate key, or undefined when the webhook changed. */
  write(ctx: TenantContext, write: DeliveryWrite): Promise<RecordedDelivery | undefined> {
    const key = `${ctx.tenantId}/${ctx.environmentId}`;
    let group = this.groups.get(key);
    if (!group) {
      group = { ctx: { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: null }, queue: [], inFlight: 0 };
      this.groups.set(key, group);
    }
    const written = new Promise<RecordedDelivery | undefined>((resolve, reject) => group.queue.push({ write, resolve, reject }));
    this.flush(key, group);
    return written;
  }

  private flush(key: string, group: Group): void {
    while (group.inFlight < PARALLEL && group.queue.length > 0) {
      const batch = group.queue.splice(0, MAX_BATCH);
      group.inFlight++;
      receivingRepository
        .recordMany(
          this.db,
          group.ctx,
          batch.map((p) => p.write),
        )
        .then(
          (rows) => batch.forEach((p, i) => p.resolve(rows.get(i))),
          (error: unknown) => batch.forEach((p) => p.reject(error)),
        )
        .finally(() => {
          group.inFlight--;
          if (group.queue.length > 0) this.flush(key, group);
          else if (group.inFlight === 0) this.groups.delete(key);
        });
    }
  }
}
