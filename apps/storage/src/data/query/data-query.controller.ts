import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { DataQueryResponse } from '@platform/messaging';
import { tenantContext } from '../data-tables.service.js';
import { DataQueryRequestDto, QUERY_ANSWER_EXAMPLE } from '../dto/data-query.request.dto.js';
import { DataQueryService } from './data-query.service.js';

@ApiTags('data')
@Controller()
export class DataQueryController {
  constructor(private readonly queries: DataQueryService) {}

  @Post('v1/data/query')
  @HttpCode(200)
  @RequireScopes('data:read')
  @ApiOperation({ summary: 'Query data with one SQL SELECT over your data tables' })
  @ApiOkResponse({ schema: { example: QUERY_ANSWER_EXAMPLE } })
  @ApiBadRequestResponse({
    description: 'Not one SELECT, a refused construct (named, with its position), or a failure while running (the database message).',
    schema: {
      example: {
        error: 'Bad Request',
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
