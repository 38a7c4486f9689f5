import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { CatalogConnectorSubjects, GetConnectorRequest, TenantPayload, type ConnectorDefinition, type TenantMessage } from '@platform/messaging';
import { ConnectorsService } from './connectors.service.js';

/** Connector definitions for the connection service, which runs their operations. */
@Controller()
export class ConnectorsHandler {
  constructor(private readonly connectors: ConnectorsService) {}

  @MessagePattern(CatalogConnectorSubjects.connectorsGet)
  get(@TenantPayload(GetConnectorRequest) { tenant, body }: TenantMessage<GetConnectorRequest>): Promise<ConnectorDefinition> {
    return this.connectors.definition(tenant, body.connectorId);
  }
}
