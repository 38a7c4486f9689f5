import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { ProviderSecretBox } from './provider-secrets.js';
import { ProvidersController } from './providers.controller.js';
import { ProvidersService } from './providers.service.js';

/** Tenant model providers with sealed API keys. */
@Module({
  controllers: [ProvidersController],
  providers: [
    { provide: ProviderSecretBox, useFactory: (config: ServiceConfig) => new ProviderSecretBox(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    ProvidersService,
  ],
  exports: [ProvidersService],
})
export class ProvidersModule {}
