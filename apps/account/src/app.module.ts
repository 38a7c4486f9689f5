import { Module } from '@nestjs/common';
import { ApiKeysModule } from './api-keys/api-keys.module.js';
import { AuditModule } from './audit/audit.module.js';
import { CustomersModule } from './customers/customers.module.js';
import { EnvironmentsModule } from './environments/environments.module.js';
import { MeModule } from './me/me.module.js';
import { TenantsModule } from './tenants/tenants.module.js';

@Module({
  imports: [ApiKeysModule, AuditModule, CustomersModule, EnvironmentsModule, MeModule, TenantsModule],
})
export class AppModule {}
