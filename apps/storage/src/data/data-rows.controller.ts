import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { DataRowsService, MAX_BULK_ROWS, type Row } from './data-rows.service.js';
import { tenantContext } from './data-tables.service.js';
import { ROW_EXAMPLE } from './dto/data-table.response.dto.js';

const NAME = ApiParam({ name: 'name', example: 'orders' });
const ID = ApiParam({ name: 'id', format: 'uuid' });
const { id: _id, created_at: _c, updated_at: _u, ...ROW_VALUES } = ROW_EXAMPLE;

/** Rows of a data table; a customer-scoped caller reads and writes only its customer's rows. */
@ApiTags('data')
@Controller('storage/data-tables/:name/rows')
export class DataRowsController {
  constructor(private readonly rows: DataRowsService) {}

  @Post()
  @RequireScopes('data:write')
  @NAME
  @ApiOperation({ summary: `Insert one row, or { rows: [...] } (up to ${MAX_BULK_ROWS}) in one statement` })
  @ApiBody({ schema: { oneOf: [{ type: 'object', example: ROW_VALUES }, { type: 'object', properties: { rows: { type: 'array', items: { type: 'object' } } }, example: { rows: [ROW_VALUES] } }] } })
  @ApiCreatedResponse({ description: 'The row; for a bulk insert { rows: [...] } in the order sent', schema: { example: ROW_EXAMPLE } })
  async insert(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Body() body: unknown): Promise<Row | { rows: Row[] }> {
    const result = await this.rows.insertBody(tenantContext(principal), name, body);
    return 'row' in result ? result.row : result;
  }

  @Get()
  @RequireScopes('data:read')
  @NAME
  @ApiOperation({ summary: 'List rows, oldest first; filter with <column>=<value>' })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, schema: { type: 'string' } })
  @ApiOkResponse({ schema: { example: { data: [ROW_EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Query() query: Record<string, unknown>): Promise<Page<Row>> {
    return this.rows.list(tenantContext(principal), name, query);
  }

  @Patch(':id')
  @RequireScopes('data:write')
  @NAME
  @ID
  @ApiOperation({ summary: 'Change some columns of a row' })
  @ApiBody({ schema: { type: 'object', example: { status: 'refunded' } } })
  @ApiOkResponse({ schema: { example: ROW_EXAMPLE } })
  update(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Param('id') id: string, @Body() body: unknown): Promise<Row> {
    return this.rows.update(tenantContext(principal), name, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('data:write')
  @NAME
  @ID
  @ApiOperation({ summary: 'Delete a row' })
  @ApiNoContentResponse({ description: 'Deleted' })
  async delete(@CurrentPrincipal() principal: Principal, @Param('name') name: string, @Param('id') id: string): Promise<void> {
    await this.rows.delete(tenantContext(principal), name, id);
  }
}
