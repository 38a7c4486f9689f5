import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import { SystemDb } from '@platform/db';
import { KEY_USES_QUEUE, NATS_CONNECTION, ensureWorkQueue, startWorker, type KeyUse, type KeysUsedBatch, type Worker } from '@platform/messaging';

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
        await this.write(Array.isArray(item.data?.uses) ? item.data.uses : []);
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
    const col = <K extends keyof KeyUse>(k: K) => uses.map((u) => u[k]);
    const lastUse = new Map<string, { tenantId: string; at: string }>();
    for (const use of uses) {
      const seen = lastUse.get(use.keyId);
      if (!seen || seen.at < use.at) lastUse.set(use.keyId, { tenantId: use.tenantId, at: use.at });
    }
    await this.system.run(
      'record API key uses',
      async (m) => {
        await m.query(
          `insert into account.audit_logs (tenant_id, environment_id, id, scope_id, key_id, key_name, method, endpoint, status, http_status, request_id, ip, created_at)
           select t, e, i, s, k, n, me, ep, case when h < 400 then 'success' else 'error' end, h, r, ip, at
             from unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::uuid[], $6::text[], $7::text[], $8::text[], $9::int[], $10::text[], $11::text[], $12::timestamptz[])
                  as u(t, e, i, s, k, n, me, ep, h, r, ip, at)
           on conflict do nothing`,
          [col('tenantId'), col('environmentId'), col('id'), col('customerId'), col('keyId'), col('keyName'), col('method'), col('endpoint'), col('httpStatus'), col('requestId'), col('ip'), col('at')],
        );
        const keys = [...lastUse.entries()];
        await m.query(
          `update account.api_keys k set last_used_at = greatest(k.last_used_at, u.at)
             from unnest($1::uuid[], $2::uuid[], $3::timestamptz[]) as u(t, id, at)
            where k.tenant_id = u.t and k.id = u.id`,
          [keys.map(([, v]) => v.tenantId), keys.map(([id]) => id), keys.map(([, v]) => v.at)],
        );
      },
      'debug',
    );
  }
}
