import { Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { ApiTag, PageQueryDto } from '@platform/service';
import { ConnectionTestResponseDto, OperationListResponseDto } from '../connections/dto/connection.response.dto.js';
import { OperationsService, type ConnectionTestResult } from './operations.service.js';

const uuid = new ParseUUIDPipe();

/** A connection's test and the operations it can run: routes under /connections/:id, served by the operations feature. */
@ApiTag(
  'connections',
  'Credentials for outside systems (API key, basic, bearer, OAuth 2.0), sealed at rest and never returned; connection tests; the operations a connection can run.',
)
@Controller('connections')
export class OperationsController {
  constructor(private readonly operations: OperationsService) {}

  @Post(':id/test')
  @HttpCode(200)
  @RequireScopes('connections:write')
  @ApiOperation({
    summary: 'Test connection',
    description:
      "Runs the connector's test operation for real (Slack auth.test, GitHub /user, Stripe /balance, PostgreSQL `select 1`, …): `{ ok: true }`, or `{ ok: false, status, message }` from the remote side.",
  })
  @ApiOkResponse({ type: ConnectionTestResponseDto, description: 'The outcome', example: { ok: false, status: 401, message: 'invalid_auth' } })
  @ApiNotFoundResponse({ description: 'No such connection' })
  test(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string): Promise<ConnectionTestResult> {
    return this.operations.test(p, id);
  }

  @Get(':id/operations')
  @RequireScopes('connections:read')
  @ApiOperation({
    summary: 'List connector operations',
    description: "The operations of the connection's connector, with their input and output JSON Schemas; by operation id, cursor-paginated.",
  })
  @ApiOkResponse({ type: OperationListResponseDto, description: 'A page of operations, by id; `next_cursor` is null on the last page' })
  @ApiNotFoundResponse({ description: 'No such connection' })
  operationList(@CurrentPrincipal() p: Principal, @Param('id', uuid) id: string, @Query() q: PageQueryDto): Promise<OperationListResponseDto> {
    return this.operations.operations(p, id, q);
  }
}
