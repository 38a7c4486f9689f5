import { Module } from '@nestjs/common';
import { resolveMasterKeys } from '@platform/common';
import { SystemDb } from '@platform/db';
import { SERVICE_CONFIG } from '@platform/service';
import type { AccountConfig } from '../config/account.config.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysHandler } from './api-keys.handler.js';
import { ApiKeysService } from './api-keys.service.js';
import { KeyExpiryNoticeJob } from './key-expiry-notice.job.js';
import { KeyExpiryJob } from './key-expiry.job.js';
import { KeyHasher, loadKeyHasher } from './key-hasher.js';
import { KeyVerificationService } from './key-verification.service.js';

/** API keys: issue, rotate, revoke, expire (with a notice before), and verification for every service. */
@Module({
  controllers: [ApiKeysController, ApiKeysHandler],
  providers: [
    {
      provide: KeyHasher,
      useFactory: (config: AccountConfig, system: SystemDb) =>
        system.run('load the API key hash key', (m) => loadKeyHasher(m, resolveMasterKeys(config)), 'debug'),
      inject: [SERVICE_CONFIG, SystemDb],
    },
    ApiKeysService,
    KeyVerificationService,
    KeyExpiryJob,
    KeyExpiryNoticeJob,
  ],
  exports: [KeyHasher],
})
export class ApiKeysModule {}
