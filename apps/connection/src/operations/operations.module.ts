import { Module } from '@nestjs/common';
import { ConnectionsModule } from '../connections/connections.module.js';
import { ConnectorsModule } from '../connectors/connectors.module.js';
import { OAuthModule } from '../oauth/oauth.module.js';
import { OutboundModule } from '../outbound/outbound.module.js';
import { HttpOperation } from './http-operation.js';
import { OperationDrivers } from './operation-drivers.js';
import { OperationsController } from './operations.controller.js';
import { OperationsHandler } from './operations.handler.js';
import { OperationsService } from './operations.service.js';
import { PostgresOperation } from './postgres-operation.js';
import { SmtpOperation } from './smtp-operation.js';

/** The operations a connection runs: for runs and agents (NATS), connection tests and operation lists (HTTP). */
@Module({
  imports: [ConnectorsModule, OutboundModule, ConnectionsModule, OAuthModule],
  controllers: [OperationsController, OperationsHandler],
  providers: [HttpOperation, PostgresOperation, SmtpOperation, OperationDrivers, OperationsService],
})
export class OperationsModule {}
