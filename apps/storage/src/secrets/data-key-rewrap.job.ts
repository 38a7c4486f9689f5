import { Inject, Injectable } from '@nestjs/common';
import { errorMessage, someOf } from '@platform/common';
import { PeriodicJob } from '@platform/service';
import { SystemDb } from '@platform/db';
import { DataKeysService } from './data-keys.service.js';
import { dataKeysRepository } from './secrets.repository.js';
import { SECRETS_CONFIG, type SecretsConfig } from './secrets.config.js';

const BATCH = 200;

export interface RewrapResult {
  rewrapped: number;
  /** Data keys under a master key this process does not hold at all. */
  unreadable: number;
  /** Data keys under a held previous master key that would not open (damaged), marked by this pass: left as they are, logged once. */
  failed: number;
  /** Data keys marked by an earlier pass and not restored since: no longer tried. */
  markedBefore: number;
}

/**
 * Master key rotation without downtime: start the service with the new MASTER_KEY and the old
 * one in MASTER_KEY_PREVIOUS. Every data key still reads (the row names its master key), and
 * this job re-wraps them under the current key, at start and then every
 * SECRETS_REWRAP_INTERVAL_MS, so keys created meanwhile by replicas still on the old
 * configuration are caught too. Secret ciphertexts never change. Replicas may run it at once:
 * rows are taken with SKIP LOCKED and each batch commits on its own.
 *
 * A data key that does not open under the master key it names (a damaged row) is tried once: it
 * is marked (`rewrap_failed_at`, `rewrap_error`) in the batch that found it, logged at error, and
 * left out of every later scan, so a pass always walks past the damaged keys to the others.
 * After restoring the row from a backup, setting `rewrap_failed_at` to null has the next pass try
 * it again.
 */
@Injectable()
export class DataKeyRewrapJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly keys: DataKeysService,
    @Inject(SECRETS_CONFIG) config: SecretsConfig,
  ) {
    // At start too (not awaited: start-up must not wait on a cross-tenant scan); 0 = only then.
    super({ name: 'DataKeyRewrapJob', intervalMs: config.SECRETS_REWRAP_INTERVAL_MS, runAtStart: true });
  }

  protected pass(): Promise<RewrapResult> {
    return this.rewrapAll();
  }

  run(): Promise<RewrapResult> {
    return this.runOnce() as Promise<RewrapResult>;
  }

  private async rewrapAll(): Promise<RewrapResult> {
    const previous = this.keys.previousMasterKeyIds();
    let rewrapped = 0;
    let failed = 0;
    while (previous.length) {
      const batch = await this.system.run('re-wrap data keys under the current master key', async (m) => {
        const rows = await dataKeysRepository.lockWrappedUnder(m, previous, BATCH);
        const broken: { tenantId: string; id: string; error: string }[] = [];
        for (const row of rows) {
          // A key that does not open under the master key it names (a damaged row) must not stop the others.
          let next;
          try {
            next = this.keys.rewrap(row);
          } catch (error) {
            broken.push({ tenantId: row.tenant_id, id: row.id, error: errorMessage(error) });
            continue;
          }
          await dataKeysRepository.rewrap(m, next);
        }
        // Marked in the batch's transaction: the next batch's scan no longer sees them.
        await dataKeysRepository.markRewrapFailed(m, broken);
        return { taken: rows.length, broken };
      });
      rewrapped += batch.taken - batch.broken.length;
      failed += batch.broken.length;
      if (batch.broken.length)
        this.logger.error(
          `${batch.broken.length} data key(s) could not be opened under the master key they name (${[...new Set(batch.broken.map((b) => b.error))].join('; ')}): ` +
            `their secrets cannot be read; restore them from a backup. Marked in storage.data_keys.rewrap_failed_at and no longer tried (set it to null to retry a restored row): ` +
            someOf(batch.broken.map((b) => `tenant ${b.tenantId} key ${b.id}`)),
        );
      if (batch.taken < BATCH) break;
    }
    const counts = await this.system.run(
      'count data keys under unknown master keys or marked as not opening',
      async (m) => ({
        unreadable: await dataKeysRepository.countNotUnder(m, [this.keys.currentMasterKeyId(), ...previous]),
        marked: await dataKeysRepository.countRewrapFailed(m),
      }),
      'debug',
    );
    if (rewrapped) this.logger.log(`re-wrapped ${rewrapped} data key(s) under master key ${this.keys.currentMasterKeyId()}`);
    if (counts.unreadable)
      this.logger.warn(
        `${counts.unreadable} data key(s) are wrapped by a master key this service does not hold: their secrets cannot be read until MASTER_KEY_PREVIOUS names it`,
      );
    return { rewrapped, unreadable: counts.unreadable, failed, markedBefore: Math.max(0, counts.marked - failed) };
  }
}
