import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query } from '@nestjs/common';
import { ApiBody, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { ConnectorsService, type ConnectorSummary, type ConnectorView } from './connectors.service.js';
import { CONNECTOR_SUMMARY_EXAMPLE, ConnectorResponseDto, ConnectorSummaryDto, ListConnectorsQueryDto } from './dto/connector.dto.js';
import { CONNECTOR_DEFINITION_OPENAPI } from './definition.openapi.js';
import { SLACK_CONNECTOR } from './builtins/messaging.js';

export const CUSTOM_CONNECTOR_EXAMPLE = {
  id: 'acme-crm',
  name: 'Acme CRM',
  version: '1.0.0',
  description: 'Our CRM',
  categories: ['crm'],
  icon: 'https://acme.example/icon.svg',
  publisher: 'Acme',
  auth: [{ type: 'bearer', prefix: 'Bearer ' }],
  base_url: 'https://crm.acme.example/api',
  settings_schema: { type: 'object' },
  driver: 'http',
  operations: [
    {
      id: 'get_contact',
      name: 'Get a contact',
      description: 'One contact by id',
      input_schema: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      output_schema: { type: 'object' },
      http: { method: 'GET', path: '/contacts/{{input.id}}' },
    },
  ],
  test_operation: { operation: 'get_contact', input: { id: 'me' } },
};

/** The connector catalog: declarative definitions of the outside systems workflows talk to. */
@ApiTag('catalog', 'Connectors, workflow templates and the marketplace: what workflows can talk to and start from.')
@Controller('catalog/connectors')
export class ConnectorsController {
  constructor(private readonly connectors: ConnectorsService) {}

  @Get()
  @RequireScopes('connections:read')
  @ApiOperation({
    summary: 'List connectors',
    description: 'Built-in connectors and those installed into the environment from the marketplace, by id. `q` searches words, `category` filters.',
  })
  @ApiPageResponse(ConnectorSummaryDto, { example: { data: [CONNECTOR_SUMMARY_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListConnectorsQueryDto): Promise<Page<ConnectorSummary>> {
    return this.connectors.list(p, q);
  }

  @Get(':id')
  @RequireScopes('connections:read')
  @ApiOperation({
    summary: 'Get a connector',
    description: 'The whole definition: auth schemes, settings schema, operations with their input and output JSON Schemas.',
  })
  @ApiOkResponse({ type: ConnectorResponseDto, description: 'The connector', example: { ...SLACK_CONNECTOR, ...CONNECTOR_SUMMARY_EXAMPLE } })
  @ApiNotFoundResponse({ description: 'No such connector' })
  @ApiParam({ name: 'id', description: "The connector's id: a slug, not a UUID", schema: { type: 'string', minLength: 1, maxLength: 200, example: 'slack' } })
  get(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ConnectorView> {
    return this.connectors.get(p, id);
  }

  @Put()
  @RequireScopes('connections:write')
  @ApiOperation({
    summary: 'Save a custom connector',
    description:
      "Adds (or replaces) the environment's own declarative connector. The body is a connector definition, checked against the definition JSON Schema (400 naming each problem); built-in and marketplace ids are taken.",
  })
  @ApiBody({
    schema: CONNECTOR_DEFINITION_OPENAPI,
    description: 'A connector definition (see GET /catalog/connectors/{id}), checked against this schema',
    examples: { custom: { summary: 'A small custom connector', value: CUSTOM_CONNECTOR_EXAMPLE } },
  })
  @ApiOkResponse({ type: ConnectorResponseDto, description: 'The connector' })
  save(@CurrentPrincipal() p: Principal, @Body() body: Record<string, unknown>): Promise<ConnectorView> {
    return this.connectors.saveCustom(p, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('connections:write')
  @ApiOperation({
    summary: 'Remove a connector',
    description: 'Removes a custom or marketplace-installed connector from the environment; its connections stop working.',
  })
  @ApiNoContentResponse({ description: 'Removed' })
  @ApiParam({ name: 'id', description: "The connector's id: a slug, not a UUID", schema: { type: 'string', minLength: 1, maxLength: 200, example: 'slack' } })
  remove(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<void> {
    return this.connectors.remove(p, id);
  }
}
