import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, SCOPE_CATALOGUE, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { ApiKeyResponse } from './api-key.record.js';
import { ApiKeysService, type CreatedApiKey } from './api-keys.service.js';
import { CreateAccountApiKeyRequestDto, CreateApiKeyRequestDto } from './dto/create-api-key.request.dto.js';
import { ListApiKeysQueryDto } from './dto/list-api-keys.query.dto.js';
import { RotateApiKeyRequestDto } from './dto/rotate-api-key.request.dto.js';

const KEY = 'api/v1/workflow/data-planes/api-keys';
const ACCOUNT_KEY = 'account/api-keys';
const uuid = new ParseUUIDPipe({ version: undefined });

const KEY_EXAMPLE = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  name: 'ci-deployer',
  type: 'tenant',
  mode: 'live',
  data_plane_id: '0194f1c2-0000-7000-8000-000000000001',
  customer_id: null,
  scopes: ['automations:run', 'data:read'],
  prefix: 'sv_live_AbC1',
  status: 'active',
  created_at: '2026-11-22T10:00:00.000Z',
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  rotated_at: null,
  replaced_by: null,
};

/** Both path forms of the spec: `/api/v1/workflow/data-planes/...` and `/account/api-keys/...`. */
@ApiTags('api-keys')
@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get(`${ACCOUNT_KEY}/scopes`)
  @RequireScopes()
  @ApiOperation({ summary: 'The scope catalogue keys are granted from' })
  @ApiOkResponse({ schema: { example: { data: [{ scope: 'automations:run', description: 'Start automations' }] } } })
  scopes() {
    return { data: Object.entries(SCOPE_CATALOGUE).map(([scope, description]) => ({ scope, description })) };
  }

  @Post('api/v1/workflow/data-planes/:dataPlaneId/api-keys')
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Create a key in a data plane; the value is returned only in this response' })
  @ApiCreatedResponse({ schema: { example: { ...KEY_EXAMPLE, key: 'sv_live_…' } } })
  create(@CurrentPrincipal() principal: Principal, @Param('dataPlaneId', uuid) dataPlaneId: string, @Body() body: CreateApiKeyRequestDto): Promise<CreatedApiKey> {
    return this.keys.create(principal, dataPlaneId, body);
  }

  @Post(ACCOUNT_KEY)
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Create an API key (account service form); the value is returned only in this response' })
  @ApiCreatedResponse({ schema: { example: { ...KEY_EXAMPLE, key: 'sv_live_…' } } })
  createInAccount(@CurrentPrincipal() principal: Principal, @Body() body: CreateAccountApiKeyRequestDto): Promise<CreatedApiKey> {
    return this.keys.create(principal, body.data_plane_id, body);
  }

  @Get([KEY, ACCOUNT_KEY])
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'List keys (never their values)' })
  @ApiOkResponse({ schema: { example: { data: [KEY_EXAMPLE], next_cursor: null } } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApiKeysQueryDto): Promise<Page<ApiKeyResponse>> {
    return this.keys.list(principal, query);
  }

  @Get([`${KEY}/:keyId`, `${ACCOUNT_KEY}/:keyId`])
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Get key details' })
  @ApiOkResponse({ schema: { example: KEY_EXAMPLE } })
  get(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string): Promise<ApiKeyResponse> {
    return this.keys.get(principal, keyId);
  }

  @Post([`${KEY}/:keyId/rotate`, `${ACCOUNT_KEY}/:keyId/rotate`])
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Issue a new key; the old one works for the transition period, then stops' })
  @ApiCreatedResponse({ schema: { example: { ...KEY_EXAMPLE, key: 'sv_live_…' } } })
  rotate(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string, @Body() body: RotateApiKeyRequestDto): Promise<CreatedApiKey> {
    return this.keys.rotate(principal, keyId, body.transition_period_seconds ?? 0);
  }

  @Post([`${KEY}/:keyId/revoke`, `${ACCOUNT_KEY}/:keyId/revoke`])
  @HttpCode(200)
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Revoke a key: it fails on its next request in every service' })
  @ApiOkResponse({ schema: { example: { ...KEY_EXAMPLE, status: 'revoked', revoked_at: '2026-11-22T11:00:00.000Z' } } })
  revoke(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string): Promise<ApiKeyResponse> {
    return this.keys.revoke(principal, keyId);
  }
}
