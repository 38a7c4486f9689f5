import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { type Page } from '@platform/common';
import { PageQueryDto } from '@platform/service';
import type { DataTableResponse } from './data-table.record.js';
import { DataTablesService } from './data-tables.service.js';
import { CreateDataTableRequestDto } from './dto/create-data-table.request.dto.js';
import { DATA_TABLE_EXAMPLE } from './dto/data-table.response.dto.js';

const NAME = ApiParam({ name: 'name', example: 'orders', description: '[a-z_][a-z0-9_]{0,62}' });

@ApiTags('data')
@Controller('storage/data-tables')
export class DataTablesController {
  constructor(private readonly tables: DataTablesService) {}

  @Post()
  @RequireScopes('data:write')
  @ApiOperation({ summary: 'Create a data table with typed columns (tenant-wide credentials only)' })
  @ApiCreatedResponse({ schema: { example: DATA_TABLE_EXAMPLE } })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateDataTableRequestDto): Promise<DataTableResponse> {
    return this.tables.create(principal, body);
  }

  @Get()
  @RequireScopes('data:read')
  @ApiOperation({ summary: 'List data tables' })
  @ApiOkResponse({ schema: { example: { data: [DATA_TABLE_EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<Page<DataTableResponse>> {
    return this.tables.list(principal, query);
  }

  @Get(':name')
  @RequireScopes('data:read')
  @NAME
  @ApiOperation({ summary: 'Get a data table definition' })
  @ApiOkResponse({ schema: { example: DATA_TABLE_EXAMPLE } })
  get(@CurrentPrincipal() principal: Principal, @Param('name') name: string): Promise<DataTableResponse> {
    return this.tables.get(principal, name);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScopes('data:write')
  @NAME
  @ApiOperation({ summary: 'Delete a data table and all its rows (tenant-wide credentials only)' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('name') name: string): Promise<void> {
    return this.tables.delete(principal, name);
  }
}
