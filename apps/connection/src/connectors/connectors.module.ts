import { Module } from '@nestjs/common';
import { ConnectorDefinitions } from './connector-definitions.js';
import { InputValidator } from './input-validator.js';

/** Connector definitions (from the catalog) and the check of settings and inputs against their JSON Schemas. */
@Module({
  providers: [ConnectorDefinitions, { provide: InputValidator, useFactory: () => new InputValidator() }],
  exports: [ConnectorDefinitions, InputValidator],
})
export class ConnectorsModule {}
