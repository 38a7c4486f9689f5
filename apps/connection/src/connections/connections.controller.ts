import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { ConnectionResponse } from './connection.record.js';
import { ConnectionsService } from './connections.service.js';
import { CreateConnectionRequestDto, ListConnectionsQueryDto, UpdateConnectionRequestDto } from './dto/connection.request.dto.js';
import { CONNECTION_EXAMPLE, ConnectionResponseDto } from './dto/connection.response.dto.js';

const uuid = new ParseUUIDPipe();

/** Connections: a connector plus credentials kept sealed, owned by the tenant or one customer. Tests and operation lists: OperationsController. */
@ApiTag(
  'connections',
  'Credentials for outside systems (API key, basic, bearer, OAuth 2.0), sealed at rest and never returned; connection tests; the operations a connection can run.',
)
@Controller('connections')
export class ConnectionsController {
  constructor(private readonly connections: ConnectionsService) {}

  @Get()
  @RequireScopes('connections:read')
  @ApiOperation({
    summary: 'List connections',
    description: 'Connections of the environment (a customer key: its own), without credentials. Filters: connector_id, customer_id, status.',
  })
  @ApiPageResponse(ConnectionResponseDto, { example: { data: [CONNECTION_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: ListConnectionsQueryDto): Promise<Page<ConnectionResponse>> {
    return this.connections.list(p, q);
  }

  @Post()
  @RequireScopes('connections:write')
  @ApiOperation({
    summary: 'Create connection',
    description:
      "A connection of a catalog connector. `auth.type` is one of the connector's schemes; secrets (key, password, token, client_secret) are sealed and never returned. An `oauth2_code` connection starts `pending_authorization`: call POST /connections/oauth/start.",
  })
  @ApiCreatedResponse({ type: ConnectionResponseDto, description: 'The connection', example: CONNECTION_EXAMPLE })
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateConnectionRequestDto): Promise<ConnectionResponse> {
    return this.connections.create(p, body);
  }

  @Get(':id')
  @RequireScopes('connections:read')
  @ApiOperation({ summary: 'Get a connection', description: 'One connection, without credentials (`credentials` names those that are set).' })
  @ApiOkResponse({ type: ConnectionResponseDto, description: 'The connection', example: CONNECTION_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such connection (also another tenant’s or customer’s)' })
  get(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<ConnectionResponse> {
    return this.connections.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('connections:write')
  @ApiOperation({ summary: 'Update a connection', description: 'Name, settings or auth. A secret left out of `auth` is kept when the type stays the same.' })
  @ApiOkResponse({ type: ConnectionResponseDto, description: 'The connection', example: CONNECTION_EXAMPLE })
  update(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Body() body: UpdateConnectionRequestDto): Promise<ConnectionResponse> {
    return this.connections.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('connections:write')
  @ApiOperation({ summary: 'Delete a connection', description: 'Deletes the connection and its credentials; steps that name it fail from then on.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.connections.delete(p, id);
  }
}
