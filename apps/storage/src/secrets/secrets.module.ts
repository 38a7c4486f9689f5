import { Module } from '@nestjs/common';
import { type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { DataKeyRewrapJob } from './data-key-rewrap.job.js';
import { DataKeysService } from './data-keys.service.js';
import { KeyRing } from './key-ring.js';
import { SecretsController } from './secrets.controller.js';
import { SECRETS_CONFIG, buildKeyRing, loadSecretsConfig, type SecretsConfig } from './secrets.config.js';
import { SecretsHandler } from './secrets.handler.js';
import { SecretsService } from './secrets.service.js';

/** Secrets feature of the storage service: encrypted values, metadata over HTTP, values over NATS. */
@Module({
  controllers: [SecretsController, SecretsHandler],
  providers: [
    // Loaded here so a bad setting stops start-up with a clear message (ConfigError).
    { provide: SECRETS_CONFIG, useFactory: () => loadSecretsConfig() },
    { provide: KeyRing, useFactory: (service: ServiceConfig, own: SecretsConfig) => buildKeyRing(service, own), inject: [SERVICE_CONFIG, SECRETS_CONFIG] },
    DataKeysService,
    SecretsService,
    DataKeyRewrapJob,
  ],
})
export class SecretsModule {}
