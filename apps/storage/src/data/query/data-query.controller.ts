import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { DataQueryResponse } from '@platform/messaging';
import { ApiTag } from '@platform/service';
import { tenantContext } from '../data-tables.service.js';
import { DataQueryRequestDto, QUERY_ANSWER_EXAMPLE } from '../dto/data-query.request.dto.js';
import { DataQueryService } from './data-query.service.js';

@ApiTag('data', 'Data tables with typed columns, their rows, and read-only SQL queries over them (`POST /v1/data/query`).')
@Controller()
export class DataQueryController {
  constructor(private readonly queries: DataQueryService) {}

  @Post('v1/data/query')
  @HttpCode(200)
  @RequireScopes('data:read')
  @ApiOperation({
    summary: 'Query data with SQL',
    description:
      'One read-only SQL SELECT over your data tables (by name) and the views workflows, executions and tasks, with `$1…$n` parameters bound. Runs under your tenant, environment and customer scope, within DATA_QUERY_TIMEOUT_MS; answers at most DATA_QUERY_MAX_ROWS rows (`truncated: true` when there were more).',
  })
  @ApiOkResponse({ description: 'The columns and rows', schema: { example: QUERY_ANSWER_EXAMPLE } })
  @ApiBadRequestResponse({
    description:
      'Not one SELECT, a refused construct (named, with its position; `invalid_query`), or a failure while running (the database message; `query_failed`).',
    schema: {
      example: {
        error: 'Bad Request',
        code: 'invalid_query',
        message: 'function pg_sleep() is not allowed at position 8',
        status: 400,
        request_id: '0194f1c2-…',
        details: [{ field: 'query', message: 'function pg_sleep() is not allowed at position 8' }],
      },
    },
  })
  query(@CurrentPrincipal() principal: Principal, @Body() body: DataQueryRequestDto): Promise<DataQueryResponse> {
    return this.queries.query(tenantContext(principal), body.query, body.params ?? []);
  }
}
