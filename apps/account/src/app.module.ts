import { Module } from '@nestjs/common';
import { resolveMasterKey } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { ApiKeysController } from './api-keys/api-keys.controller.js';
import { ApiKeysHandler } from './api-keys/api-keys.handler.js';
import { ApiKeysService } from './api-keys/api-keys.service.js';
import { KeyExpiryJob } from './api-keys/key-expiry.job.js';
import { KeyHasher } from './api-keys/key-hasher.js';
import { KeyVerificationService } from './api-keys/key-verification.service.js';
import { AuditController } from './audit/audit.controller.js';
import { AuditService } from './audit/audit.service.js';
import { KeyUsageConsumer } from './audit/key-usage.consumer.js';
import { ACCOUNT_CONFIG, type AccountConfig } from './config/account.config.js';
import { CustomersHandler } from './customers/customers.handler.js';
import { MeController } from './me/me.controller.js';
import { EnvironmentsHandler } from './tenants/environments.handler.js';
import { TenantsController } from './tenants/tenants.controller.js';

@Module({
  controllers: [ApiKeysController, AuditController, MeController, TenantsController, ApiKeysHandler, CustomersHandler, EnvironmentsHandler],
  providers: [
    { provide: ACCOUNT_CONFIG, useExisting: SERVICE_CONFIG },
    { provide: KeyHasher, useFactory: (config: AccountConfig) => new KeyHasher(resolveMasterKey(config)), inject: [SERVICE_CONFIG] },
    ApiKeysService,
    KeyVerificationService,
    KeyExpiryJob,
    AuditService,
    KeyUsageConsumer,
  ],
})
export class AppModule {}
