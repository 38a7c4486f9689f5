import { Module } from '@nestjs/common';
import { ConnectorRegistry } from './connector-registry.js';
import { ConnectorsController } from './connectors.controller.js';
import { ConnectorsHandler } from './connectors.handler.js';
import { ConnectorsService } from './connectors.service.js';
import { InstalledConnectors } from './installed-connectors.js';

/** Connector definitions: built in, validated at start-up, and installed from the marketplace. */
@Module({
  controllers: [ConnectorsController, ConnectorsHandler],
  providers: [ConnectorRegistry, InstalledConnectors, ConnectorsService],
  exports: [ConnectorRegistry, InstalledConnectors, ConnectorsService],
})
export class ConnectorsModule {}
