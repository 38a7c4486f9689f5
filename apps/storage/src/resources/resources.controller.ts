import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { ResourceResponseDto } from './dto/resource.response.dto.js';
import { ListResourcesQueryDto, PatchResourceRequestDto, ResourceRequestDto } from './dto/resource.request.dto.js';
import { RESOURCE_EXAMPLE, type ResourceResponse } from './resource.record.js';
import { ResourcesService } from './resources.service.js';

const uuid = new ParseUUIDPipe({ version: undefined });

/** Named configuration objects (a database, an API endpoint) that workflows refer to. */
@ApiTag('resources', 'Named configuration objects (a database, an API endpoint) that workflows refer to.')
@Controller('storage/resources')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  @Get()
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'List resources', description: 'Resources of the environment, by name; filter by type.' })
  @ApiPageResponse(ResourceResponseDto, { example: { data: [RESOURCE_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListResourcesQueryDto): Promise<Page<ResourceResponse>> {
    return this.resources.list(principal, query);
  }

  @Post()
  @RequireScopes('storage:write')
  @ApiOperation({
    summary: 'Create a resource',
    description: 'A named configuration object: a name unique in the environment, a free-text type and a JSON config of up to 64 KiB.',
  })
  @ApiConflictResponse({ description: "A resource named 'orders-db' already exists" })
  @ApiCreatedResponse({ type: ResourceResponseDto, description: 'The resource', example: RESOURCE_EXAMPLE })
  create(@CurrentPrincipal() principal: Principal, @Body() body: ResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.create(principal, body);
  }

  @Get(':id')
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'Get a resource', description: 'One resource by id.' })
  @ApiOkResponse({ type: ResourceResponseDto, description: 'The resource', example: RESOURCE_EXAMPLE })
  get(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<ResourceResponse> {
    return this.resources.get(principal, id);
  }

  @Put(':id')
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Replace a resource', description: 'Replaces every field; a description not sent becomes null.' })
  @ApiConflictResponse({ description: "A resource named 'orders-db' already exists" })
  @ApiOkResponse({ type: ResourceResponseDto, description: 'The resource', example: RESOURCE_EXAMPLE })
  replace(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string, @Body() body: ResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.replace(principal, id, body);
  }

  @Patch(':id')
  @RequireScopes('storage:write')
  @ApiOperation({
    summary: 'Change a resource',
    description: 'Changes the fields sent; `config` is merged into the stored one at the top level (a key set to null is removed).',
  })
  @ApiConflictResponse({ description: "A resource named 'orders-db' already exists" })
  @ApiOkResponse({ type: ResourceResponseDto, description: 'The resource', example: RESOURCE_EXAMPLE })
  patch(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string, @Body() body: PatchResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.patch(principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Delete a resource', description: 'Deletes a resource; workflows that refer to it fail when they next read it.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.resources.delete(principal, id);
  }
}
