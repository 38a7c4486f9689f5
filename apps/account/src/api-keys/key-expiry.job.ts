import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob, SERVICE_CONFIG } from '@platform/service';
import { SystemDb } from '@platform/db';
import { AccountSubjects, Bus, messageContext } from '@platform/messaging';
import { expireDueKeys } from './api-keys.repository.js';
import type { AccountConfig } from '../config/account.config.js';

/**
 * Keys change state when their date passes, not only when used: a sweep marks them expired and
 * tells every service to forget them. Any replica may run it; the update is idempotent and each
 * key is announced by the replica whose update changed it.
 */
@Injectable()
export class KeyExpiryJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly bus: Bus,
    @Inject(SERVICE_CONFIG) config: AccountConfig,
  ) {
    super({ name: 'KeyExpiryJob', intervalMs: config.KEY_EXPIRY_SWEEP_MS });
  }

  protected pass(): Promise<number> {
    return this.sweep();
  }

  async sweep(): Promise<number> {
    const keyIds = await this.system.run('expire API keys past their date', (m) => expireDueKeys(m), 'debug');
    if (keyIds.length) {
      this.bus.emit(AccountSubjects.keysRevoked, { keyIds }, messageContext(null, { actor: 'system:key-expiry' }));
      this.logger.log(`expired ${keyIds.length} API key(s)`);
    }
    return keyIds.length;
  }
}
