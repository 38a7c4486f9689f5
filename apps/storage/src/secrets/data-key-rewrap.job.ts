import { Inject, Injectable } from '@nestjs/common';
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
  /** Data keys under a held previous master key that would not open (damaged): left as they are, logged. */
  failed: number;
}

/**
 * Master key rotation without downtime: start the service with the new MASTER_KEY and the old
 * one in MASTER_KEY_PREVIOUS. Every data key still reads (the row names its master key), and
 * this job re-wraps them under the current key, at start and then every
 * SECRETS_REWRAP_INTERVAL_MS, so keys created meanwhile by replicas still on the old
 * configuration are caught too. Secret ciphertexts never change. Replicas may run it at once:
 * rows are taken with SKIP LOCKED and each batch commits on its own.
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
        let done = 0;
        let broken = 0;
        for (const row of rows) {
          // A key that does not open under the master key it names (a damaged row) must not stop the others.
          let next;
          try {
            next = this.keys.rewrap(row);
          } catch {
            broken++;
            continue;
          }
          await dataKeysRepository.rewrap(m, next);
          done++;
        }
        return { taken: rows.length, done, broken };
      });
      rewrapped += batch.done;
      failed += batch.broken;
      // A batch with damaged rows would take them again: the next pass retries, this one ends.
      if (batch.taken < BATCH || batch.broken) break;
    }
    const unreadable = await this.system.run(
      'count data keys under unknown master keys',
      (m) => dataKeysRepository.countNotUnder(m, [this.keys.currentMasterKeyId(), ...previous]),
      'debug',
    );
    if (rewrapped) this.logger.log(`re-wrapped ${rewrapped} data key(s) under master key ${this.keys.currentMasterKeyId()}`);
    if (failed)
      this.logger.error(`${failed} data key(s) could not be opened under the master key they name: their secrets cannot be read; restore them from a backup`);
    if (unreadable)
      this.logger.warn(
        `${unreadable} data key(s) are wrapped by a master key this service does not hold: their secrets cannot be read until MASTER_KEY_PREVIOUS names it`,
      );
    return { rewrapped, unreadable, failed };
  }
}
