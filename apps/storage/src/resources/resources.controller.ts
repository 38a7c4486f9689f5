import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ListResourcesQueryDto, PatchResourceRequestDto, ResourceRequestDto } from './dto/resource.request.dto.js';
import { RESOURCE_EXAMPLE, type ResourceResponse } from './resource.record.js';
import { ResourcesService } from './resources.service.js';

const uuid = new ParseUUIDPipe({ version: undefined });

/** Named configuration objects (a database, an API endpoint) that workflows refer to. */
@ApiTags('resources')
@Controller('storage/resources')
export class ResourcesController {
  constructor(private readonly resources: ResourcesService) {}

  @Get()
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'List resources, by name' })
  @ApiOkResponse({ schema: { example: { data: [RESOURCE_EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListResourcesQueryDto): Promise<Page<ResourceResponse>> {
    return this.resources.list(principal, query);
  }

  @Post()
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Create a resource (409 if the name is taken)' })
  @ApiCreatedResponse({ schema: { example: RESOURCE_EXAMPLE } })
  create(@CurrentPrincipal() principal: Principal, @Body() body: ResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.create(principal, body);
  }

  @Get(':id')
  @RequireScopes('storage:read')
  @ApiOperation({ summary: 'Get a resource' })
  @ApiOkResponse({ schema: { example: RESOURCE_EXAMPLE } })
  get(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<ResourceResponse> {
    return this.resources.get(principal, id);
  }

  @Put(':id')
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Replace a resource (every field; description defaults to null)' })
  @ApiOkResponse({ schema: { example: RESOURCE_EXAMPLE } })
  replace(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string, @Body() body: ResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.replace(principal, id, body);
  }

  @Patch(':id')
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Change some fields; config is merged at the top level (null removes a key)' })
  @ApiOkResponse({ schema: { example: RESOURCE_EXAMPLE } })
  patch(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string, @Body() body: PatchResourceRequestDto): Promise<ResourceResponse> {
    return this.resources.patch(principal, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('storage:write')
  @ApiOperation({ summary: 'Delete a resource' })
  @ApiNoContentResponse()
  delete(@CurrentPrincipal() principal: Principal, @Param('id', uuid) id: string): Promise<void> {
    return this.resources.delete(principal, id);
  }
}
