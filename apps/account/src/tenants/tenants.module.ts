import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { ApiKeysModule } from '../api-keys/api-keys.module.js';
import { TenantsController } from './tenants.controller.js';
import { TenantsService } from './tenants.service.js';

/** Tenant creation and signup: the system path of tenancy. */
@Module({
  imports: [ApiKeysModule, UsageOutboxModule],
  controllers: [TenantsController],
  providers: [TenantsService],
})
export class TenantsModule {}
