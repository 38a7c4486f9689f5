import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { DataRowsService, MAX_BULK_ROWS, type Row } from './data-rows.service.js';
import { tenantContext } from './data-tables.service.js';
import { ROW_EXAMPLE } from './dto/data-table.response.dto.js';
import { ApiTag } from '@platform/service';

const NAME = ApiParam({ name: 'name', example: 'orders', description: 'The data table' });
const ID = ApiParam({ name: 'id', format: 'uuid', example: ROW_EXAMPLE.id, description: 'The row' });
const { id: _id, created_at: _c, updated_at: _u, ...ROW_VALUES } = ROW_EXAMPLE;

/** Rows of a data table; a customer-scoped caller reads and writes only its customer's rows. */
@ApiTag('data', 'Data tables with typed columns, their rows, and read-only SQL queries over them (`POST /v1/data/query`).')
@Controller('storage/data-tables/:name/rows')
export class DataRowsController {
  constructor(private readonly rows: DataRowsService) {}

  @Post()
  @RequireScopes('data:write')
  @NAME
  @ApiOperation({
    summary: 'Insert rows',
    description: `One row (an object of column values), or \`{ rows: [...] }\` (up to ${MAX_BULK_ROWS}) in one statement. Values are checked against the column types; a customer-scoped caller's rows belong to its customer.`,
  })
  @ApiBody({
    schema: { type: 'object', additionalProperties: true, description: 'Column values, or `{ rows: [ {…}, … ] }`' },
    examples: {
      row: { summary: 'One row', value: ROW_VALUES },
      rows: { summary: 'Several rows in one statement', value: { rows: [ROW_VALUES, { ...ROW_VALUES, reference: 'INV-1002', amount: 80 }] } },
    },
  })
  @ApiCreatedResponse({
    description: 'The row; for a bulk insert { rows: [...] } in the order sent',
    schema: { type: 'object', additionalProperties: true, description: 'Column values with id, created_at and updated_at', example: ROW_EXAMPLE },
  })
  @ApiConflictResponse({ description: "Another row already has this value in unique column 'reference'" })
  async insert(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Body() body: unknown): Promise<Row | { rows: Row[] }> {
    const result = await this.rows.insertBody(tenantContext(principal), name, body);
    return 'row' in result ? result.row : result;
  }

  @Get()
  @RequireScopes('data:read')
  @NAME
  @ApiOperation({ summary: 'List rows', description: 'Rows of a table, oldest first; filter by equality with `<column>=<value>` query parameters.' })
  @ApiQuery({ name: 'limit', required: false, description: 'Rows per page', schema: { type: 'integer', minimum: 1, maximum: 200, default: 50, example: 50 } })
  @ApiQuery({
    name: 'cursor',
    required: false,
    description: "Opaque cursor from the previous page's next_cursor",
    schema: { type: 'string', example: 'eyJpZCI6IjAxOTQifQ' },
  })
  @ApiOkResponse({
    description: 'One page of rows',
    schema: {
      type: 'object',
      required: ['data', 'next_cursor'],
      properties: { data: { type: 'array', items: { type: 'object', additionalProperties: true } }, next_cursor: { type: 'string', nullable: true } },
      example: { data: [ROW_EXAMPLE], next_cursor: null },
    },
  })
  list(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Query() query: Record<string, unknown>): Promise<Page<Row>> {
    return this.rows.list(tenantContext(principal), name, query);
  }

  @Patch(':id')
  @RequireScopes('data:write')
  @NAME
  @ID
  @ApiOperation({ summary: 'Change a row', description: 'Changes the columns sent and keeps the others.' })
  @ApiBody({ schema: { type: 'object', additionalProperties: true, description: 'Column values', example: { status: 'refunded' } } })
  @ApiConflictResponse({ description: "Another row already has this value in unique column 'reference'" })
  @ApiOkResponse({ description: 'The row', schema: { type: 'object', additionalProperties: true, example: ROW_EXAMPLE } })
  update(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Param('id') id: string, @Body() body: unknown): Promise<Row> {
    return this.rows.update(tenantContext(principal), name, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('data:write')
  @NAME
  @ID
  @ApiOperation({ summary: 'Delete a row', description: 'Deletes one row by id.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Param('id') id: string): Promise<void> {
    await this.rows.delete(tenantContext(principal), name, id);
  }
}
