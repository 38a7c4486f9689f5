import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsService } from './connections.service.js';
import { CredentialBox } from './credential-box.js';

/** Connections and their sealed credentials; OAuth and operations reach them through ConnectionsService. */
@Module({
  imports: [ConnectorsModule],
  controllers: [ConnectionsController],
  providers: [
    { provide: CredentialBox, useFactory: (config: ServiceConfig) => new CredentialBox(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    ConnectionsService,
  ],
  exports: [ConnectionsService, CredentialBox],
})
export class ConnectionsModule {}
