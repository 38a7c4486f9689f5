import { Inject, Injectable } from '@nestjs/common';
import { PeriodicJob } from '@platform/service';
import { SystemDb } from '@platform/db';
import { AccountSubjects, Bus } from '@platform/messaging';
import { ACCOUNT_CONFIG, type AccountConfig } from '../config/account.config.js';

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
    @Inject(ACCOUNT_CONFIG) config: AccountConfig,
  ) {
    super({ name: 'KeyExpiryJob', intervalMs: config.KEY_EXPIRY_SWEEP_MS });
  }

  protected pass(): Promise<number> {
    return this.sweep();
  }

  async sweep(): Promise<number> {
    const [rows] = (await this.system.run(
      'expire API keys past their date',
      (m) => m.query(`update account.api_keys set status = 'expired' where status = 'active' and expires_at <= now() returning id`),
      'debug',
    )) as [{ id: string }[], number];
    if (rows.length) {
      this.bus.emit(AccountSubjects.keysRevoked, { keyIds: rows.map((r) => r.id) }, { requestId: '', actor: 'system:key-expiry' });
      this.logger.log(`expired ${rows.length} API key(s)`);
    }
    return rows.length;
  }
}
