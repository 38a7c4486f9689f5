import { Module } from '@nestjs/common';
import { CONNECTION_CONFIG, loadConnectionConfig } from './connection.config.js';

/** CONNECTION_CONFIG: the service's own settings, for the features that need them. */
@Module({
  providers: [{ provide: CONNECTION_CONFIG, useFactory: () => loadConnectionConfig() }],
  exports: [CONNECTION_CONFIG],
})
export class ConnectionConfigModule {}
