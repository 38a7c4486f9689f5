import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { type Page } from '@platform/common';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { CreateSecretRequestDto } from './dto/create-secret.request.dto.js';
import { ReplaceSecretRequestDto } from './dto/replace-secret.request.dto.js';
import { SECRET_EXAMPLE, SecretResponseDto } from './dto/secret.response.dto.js';
import { SecretNamePipe } from './secret-name.pipe.js';
import type { SecretResponse } from './secret.record.js';
import { SecretsService } from './secrets.service.js';

const NAME = ApiParam({ name: 'name', example: 'STRIPE_API_KEY', description: '[A-Za-z0-9_.-]{1,128}' });

/** Secrets over HTTP: metadata only; values are written here and read only by runs and connections. */
@ApiTag(
  'secrets',
  'Secrets of the environment: values are written here, stored encrypted and read only by workflow runs and connections; every route answers metadata only.',
)
@Controller('storage/secrets')
export class SecretsController {
  constructor(private readonly secrets: SecretsService) {}

  @Post()
  @RequireScopes('secrets:write')
  @ApiOperation({
    summary: 'Create a secret',
    description: 'Stores a value encrypted under a name unique in the environment; workflows read it as `secrets.<name>`. The value is never returned.',
  })
  @ApiCreatedResponse({ type: SecretResponseDto, description: "The secret's metadata", example: SECRET_EXAMPLE })
  @ApiConflictResponse({ description: "A secret named 'STRIPE_API_KEY' already exists in this environment" })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateSecretRequestDto): Promise<SecretResponse> {
    return this.secrets.create(principal, body);
  }

  @Get()
  @RequireScopes('secrets:read')
  @ApiOperation({ summary: 'List secrets', description: 'Names and metadata of the secrets, by name; values are never returned.' })
  @ApiPageResponse(SecretResponseDto, { example: { data: [SECRET_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<Page<SecretResponse>> {
    return this.secrets.list(principal, query);
  }

  @Get(':name')
  @RequireScopes('secrets:read')
  @NAME
  @ApiOperation({ summary: 'Get a secret', description: "A secret's metadata: description, times, last read; never its value." })
  @ApiOkResponse({ type: SecretResponseDto, description: "The secret's metadata", example: SECRET_EXAMPLE })
  get(@CurrentPrincipal() principal: Principal, @Param('name', SecretNamePipe) name: string): Promise<SecretResponse> {
    return this.secrets.get(principal, name);
  }

  @Put(':name')
  @RequireScopes('secrets:write')
  @NAME
  @ApiOperation({
    summary: 'Replace a secret',
    description: "Replaces a secret's value, and its description when one is sent; runs started afterwards read the new value.",
  })
  @ApiOkResponse({ type: SecretResponseDto, description: "The secret's metadata", example: SECRET_EXAMPLE })
  replace(
    @CurrentPrincipal() principal: Principal,
    @Param('name', SecretNamePipe) name: string,
    @Body() body: ReplaceSecretRequestDto,
  ): Promise<SecretResponse> {
    return this.secrets.replace(principal, name, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScopes('secrets:write')
  @NAME
  @ApiOperation({ summary: 'Delete a secret', description: 'Deletes a secret and its value; workflows that read it fail afterwards.' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('name', SecretNamePipe) name: string): Promise<void> {
    return this.secrets.delete(principal, name);
  }
}
