import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { type Page } from '@platform/common';
import { PageQueryDto } from '@platform/service';
import { CreateSecretRequestDto } from './dto/create-secret.request.dto.js';
import { ReplaceSecretRequestDto } from './dto/replace-secret.request.dto.js';
import { SECRET_EXAMPLE } from './dto/secret.response.dto.js';
import { SecretNamePipe } from './secret-name.pipe.js';
import type { SecretResponse } from './secret.record.js';
import { SecretsService } from './secrets.service.js';

const NAME = ApiParam({ name: 'name', example: 'STRIPE_API_KEY', description: '[A-Za-z0-9_.-]{1,128}' });

/** Secrets over HTTP: metadata only; values are written here and read only by runs and connections. */
@ApiTags('secrets')
@Controller('storage/secrets')
export class SecretsController {
  constructor(private readonly secrets: SecretsService) {}

  @Post()
  @RequireScopes('secrets:write')
  @ApiOperation({ summary: 'Create a secret; the value is stored encrypted and never returned' })
  @ApiCreatedResponse({ schema: { example: SECRET_EXAMPLE } })
  create(@CurrentPrincipal() principal: Principal, @Body() body: CreateSecretRequestDto): Promise<SecretResponse> {
    return this.secrets.create(principal, body);
  }

  @Get()
  @RequireScopes('secrets:read')
  @ApiOperation({ summary: 'List secrets (names only; values are omitted)' })
  @ApiOkResponse({ schema: { example: { data: [SECRET_EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto): Promise<Page<SecretResponse>> {
    return this.secrets.list(principal, query);
  }

  @Get(':name')
  @RequireScopes('secrets:read')
  @NAME
  @ApiOperation({ summary: "A secret's metadata (never its value)" })
  @ApiOkResponse({ schema: { example: SECRET_EXAMPLE } })
  get(@CurrentPrincipal() principal: Principal, @Param('name', SecretNamePipe) name: string): Promise<SecretResponse> {
    return this.secrets.get(principal, name);
  }

  @Put(':name')
  @RequireScopes('secrets:write')
  @NAME
  @ApiOperation({ summary: "Replace a secret's value (and optionally its description)" })
  @ApiOkResponse({ schema: { example: SECRET_EXAMPLE } })
  replace(@CurrentPrincipal() principal: Principal, @Param('name', SecretNamePipe) name: string, @Body() body: ReplaceSecretRequestDto): Promise<SecretResponse> {
    return this.secrets.replace(principal, name, body);
  }

  @Delete(':name')
  @HttpCode(204)
  @RequireScopes('secrets:write')
  @NAME
  @ApiOperation({ summary: 'Delete a secret' })
  @ApiNoContentResponse({ description: 'Deleted' })
  delete(@CurrentPrincipal() principal: Principal, @Param('name', SecretNamePipe) name: string): Promise<void> {
    return this.secrets.delete(principal, name);
  }
}
