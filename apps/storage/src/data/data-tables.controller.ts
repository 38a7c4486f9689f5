import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { type Page } from '@platform/common';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import type { DataTableResponse } from './data-table.record.js';
import { DataTablesService } from './data-tables.service.js';
import { CreateDataTableRequestDto } from './dto/create-data-table.request.dto.js';
import { DATA_TABLE_EXAMPLE, DataTableResponseDto } from './dto/data-table.response.dto.js';

const NAME = ApiParam({ name: 'name', example: 'orders', description: '[a-z_][a-z0-9_]{0,62}' });

@ApiTag('data', 'Data tables with typed columns, their rows, and read-only SQL queries over them (`POST /v1/data/query`).')
@Controller('storage/data-tables')
export class DataTablesController {
  constructor(private readonly tables: DataTablesService) {}

  @Post()
  @RequireScopes('data:write')
  @ApiOperation({
    summary: 'Create a data table',
    description:
      'A table of the environment with typed columns (text, number, boolean, timestamp, json), optional unique columns and indexes; every row also has id, created_at and updated_at. Tenant-wide credentials only (a customer-scoped caller gets 403).',
  })
  @ApiConflictResponse({ description: "A data table named 'orders' already exists in this environment" })
  @ApiCreatedResponse({ type: DataTableResponseDto, description: 'The table definition', example: DATA_TABLE_EXAMPLE })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateDataTableRequestDto): Promise<DataTableResponse> {
    return this.tables.create(principal, body);
  }

  @Get()
  @RequireScopes('data:read')
  @ApiOperation({ summary: 'List data tables', description: 'Definitions of the data tables of the environment, by name.' })
  @ApiPageResponse(DataTableResponseDto, { example: { data: [DATA_TABLE_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<Page<DataTableResponse>> {
    return this.tables.list(principal, query);
  }

  @Get(':name')
  @RequireScopes('data:read')
  @NAME
  @ApiOperation({ summary: 'Get a data table', description: 'One table definition: columns, indexes, times.' })
  @ApiOkResponse({ type: DataTableResponseDto, description: 'The table definition', example: DATA_TABLE_EXAMPLE })
  get(@CurrentPrincipal() principal: Principal, @Param('name') name: string): Promise<DataTableResponse> {
    return this.tables.get(principal, name);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScopes('data:write')
  @NAME
  @ApiOperation({ summary: 'Delete a data table', description: 'Deletes a table and all its rows. Tenant-wide credentials only.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('name') name: string): Promise<void> {
    return this.tables.delete(principal, name);
  }
}
