import { Body, Controller, Delete, Get, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
} from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import type { ProviderResponse } from './provider.record.js';
import { ProvidersService } from './providers.service.js';
import { CreateProviderRequestDto, UpdateProviderRequestDto } from './dto/provider.request.dto.js';
import { PROVIDER_EXAMPLE, ProviderResponseDto } from './dto/provider.response.dto.js';

/** Model providers (OpenAI-compatible APIs) configured for the tenant environment. */
@ApiTag(
  'ai-providers',
  'Model providers of the tenant: any OpenAI-compatible API, with its API key sealed at rest. The built-in `local` provider needs no configuration.',
)
@Controller('ai/providers')
export class ProvidersController {
  constructor(private readonly providers: ProvidersService) {}

  @Post()
  @RequireScopes('ai:write')
  @ApiOperation({
    summary: 'Add a model provider',
    description: 'An OpenAI-compatible API and the models to use from it. Tenant keys only (customer keys: 403).',
  })
  @ApiCreatedResponse({ type: ProviderResponseDto, example: PROVIDER_EXAMPLE })
  @ApiForbiddenResponse({ description: 'A customer key or a key without ai:write' })
  @ApiConflictResponse({ description: 'A provider with this name exists already (`provider_exists`)' })
  create(@CurrentPrincipal() p: Principal, @Body() b: CreateProviderRequestDto): Promise<ProviderResponse> {
    return this.providers.create(p, b);
  }

  @Get()
  @RequireScopes('ai:write')
  @ApiOperation({
    summary: 'List model providers',
    description:
      'The OpenAI-compatible providers configured for the environment, oldest first, cursor-paginated. API keys are never returned: `has_api_key` says whether one is set.',
  })
  @ApiPageResponse(ProviderResponseDto, { example: { data: [PROVIDER_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<ProviderResponse>> {
    return this.providers.list(p, q);
  }

  @Get(':id')
  @RequireScopes('ai:write')
  @ApiOperation({
    summary: 'Get a model provider',
    description: "One provider of the environment, without its API key. Another tenant's provider is 404, like an unknown id.",
  })
  @ApiOkResponse({ type: ProviderResponseDto, example: PROVIDER_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such provider' })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<ProviderResponse> {
    return this.providers.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('ai:write')
  @ApiOperation({ summary: 'Change a model provider', description: 'Fields not sent are kept; `api_key: ""` removes the key.' })
  @ApiOkResponse({ type: ProviderResponseDto, example: PROVIDER_EXAMPLE })
  @ApiNotFoundResponse({ description: 'No such provider' })
  update(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string, @Body() b: UpdateProviderRequestDto): Promise<ProviderResponse> {
    return this.providers.update(p, id, b);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('ai:write')
  @ApiOperation({
    summary: 'Delete a model provider',
    description: 'Its models disappear from `/ai/models` at once; steps and agents that name them then fail with `validation_failed`.',
  })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiNotFoundResponse({ description: 'No such provider' })
  delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    return this.providers.delete(p, id);
  }
}
