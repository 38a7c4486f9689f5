import { Module } from '@nestjs/common';
import { resolveMasterKey } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import type { AccountConfig } from '../config/account.config.js';
import { ApiKeysController } from './api-keys.controller.js';
import { ApiKeysHandler } from './api-keys.handler.js';
import { ApiKeysService } from './api-keys.service.js';
import { KeyExpiryNoticeJob } from './key-expiry-notice.job.js';
import { KeyExpiryJob } from './key-expiry.job.js';
import { KeyHasher } from './key-hasher.js';
import { KeyVerificationService } from './key-verification.service.js';

/** API keys: issue, rotate, revoke, expire (with a notice before), and verification for every service. */
@Module({
  controllers: [ApiKeysController, ApiKeysHandler],
  providers: [
    { provide: KeyHasher, useFactory: (config: AccountConfig) => new KeyHasher(resolveMasterKey(config)), inject: [SERVICE_CONFIG] },
    ApiKeysService,
    KeyVerificationService,
    KeyExpiryJob,
    KeyExpiryNoticeJob,
  ],
  exports: [KeyHasher],
})
export class ApiKeysModule {}
