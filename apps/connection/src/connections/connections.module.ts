import { Module } from '@nestjs/common';
import { resolveMasterKeys, type ServiceConfig } from '@platform/common';
import { SERVICE_CONFIG } from '@platform/service';
import { CONNECTION_CONFIG, loadConnectionConfig } from '../config/connection.config.js';
import { ConnectorDefinitions } from '../connectors/connector-definitions.js';
import { HttpOperation } from '../operations/http-operation.js';
import { InputValidator } from '../operations/input-validator.js';
import { OperationDrivers } from '../operations/operation-drivers.js';
import { OperationsHandler } from '../operations/operations.handler.js';
import { OperationsService } from '../operations/operations.service.js';
import { Outbound } from '../operations/outbound.js';
import { PostgresOperation } from '../operations/postgres-operation.js';
import { SmtpOperation } from '../operations/smtp-operation.js';
import { OAuthClient } from '../oauth/oauth-client.js';
import { OAuthController } from '../oauth/oauth.controller.js';
import { OAuthService } from '../oauth/oauth.service.js';
import { TokenKeeper } from '../oauth/token-keeper.js';
import { ConnectionsController } from './connections.controller.js';
import { ConnectionsService } from './connections.service.js';
import { CredentialBox } from './credential-box.js';

/** Connections, their sealed credentials, OAuth, and the operations they run. */
@Module({
  controllers: [OAuthController, ConnectionsController, OperationsHandler],
  providers: [
    { provide: CONNECTION_CONFIG, useFactory: () => loadConnectionConfig() },
    { provide: CredentialBox, useFactory: (config: ServiceConfig) => new CredentialBox(resolveMasterKeys(config)), inject: [SERVICE_CONFIG] },
    { provide: InputValidator, useFactory: () => new InputValidator() },
    ConnectorDefinitions,
    Outbound,
    HttpOperation,
    PostgresOperation,
    SmtpOperation,
    OperationDrivers,
    OAuthClient,
    TokenKeeper,
    ConnectionsService,
    OperationsService,
    OAuthService,
  ],
})
export class ConnectionsModule {}
