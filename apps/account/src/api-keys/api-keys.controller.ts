import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query } from '@nestjs/common';
import { ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, SCOPE_CATALOGUE, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import { ApiKeyResponseDto, CreatedApiKeyResponseDto } from './dto/api-key.response.dto.js';
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
@ApiTag(
  'api-keys',
  'API keys of the tenant: create (the value is shown once), list, rotate with a transition period, revoke; under `/account/api-keys` and `/api/v1/workflow/data-planes/...`.',
)
@Controller()
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get(`${ACCOUNT_KEY}/scopes`)
  @RequireScopes()
  @ApiOperation({
    summary: 'List the scope catalogue',
    description: 'Every scope a key can be granted, with what it allows; a key can create keys only within its own scopes.',
  })
  @ApiOkResponse({
    description: 'The catalogue',
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        data: {
          type: 'array',
          items: { type: 'object', required: ['scope', 'description'], properties: { scope: { type: 'string' }, description: { type: 'string' } } },
        },
      },
      example: { data: [{ scope: 'automations:run', description: 'Start automations (POST /v1/automations/run, execute a workflow)' }] },
    },
  })
  scopes() {
    return { data: Object.entries(SCOPE_CATALOGUE).map(([scope, description]) => ({ scope, description })) };
  }

  @Post('api/v1/workflow/data-planes/:dataPlaneId/api-keys')
  @RequireScopes('api_keys:manage')
  @ApiOperation({
    summary: 'Create an API key in a data plane',
    description:
      "A key of the data plane in the path: live in production, test in sandbox. The value (`key`) is returned only in this answer; only a keyed hash is stored. The scopes must be within the caller's own.",
  })
  @ApiCreatedResponse({
    type: CreatedApiKeyResponseDto,
    description: 'The key record and its value, shown once',
    example: { ...KEY_EXAMPLE, key: 'sv_live_…' },
  })
  @ApiNotFoundResponse({ description: 'No such data plane (environment) of this tenant, or no such customer' })
  create(
    @CurrentPrincipal() principal: Principal,
    @Param('dataPlaneId', uuid) dataPlaneId: string,
    @Body() body: CreateApiKeyRequestDto,
  ): Promise<CreatedApiKey> {
    return this.keys.create(principal, dataPlaneId, body);
  }

  @Post(ACCOUNT_KEY)
  @RequireScopes('api_keys:manage')
  @ApiOperation({
    summary: 'Create an API key',
    description:
      "The account service form of key creation, with `data_plane_id` in the body. The value (`key`) is returned only in this answer; only a keyed hash is stored. The scopes must be within the caller's own, and a customer's caller creates only keys of its customer.",
  })
  @ApiCreatedResponse({
    type: CreatedApiKeyResponseDto,
    description: 'The key record and its value, shown once',
    example: { ...KEY_EXAMPLE, key: 'sv_live_…' },
  })
  @ApiNotFoundResponse({ description: 'No such data plane (environment) of this tenant, or no such customer' })
  createInAccount(@CurrentPrincipal() principal: Principal, @Body() body: CreateAccountApiKeyRequestDto): Promise<CreatedApiKey> {
    return this.keys.create(principal, body.data_plane_id, body);
  }

  @Get([KEY, ACCOUNT_KEY])
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'List API keys', description: 'Key records of the tenant (never their values); filter by data plane, status and type.' })
  @ApiPageResponse(ApiKeyResponseDto, { description: 'One page of key records', example: { data: [KEY_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() principal: Principal, @Query() query: ListApiKeysQueryDto): Promise<Page<ApiKeyResponse>> {
    return this.keys.list(principal, query);
  }

  @Get([`${KEY}/:keyId`, `${ACCOUNT_KEY}/:keyId`])
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Get an API key', description: 'One key record: its scopes, status, expiry, last use and rotation (never its value).' })
  @ApiOkResponse({ type: ApiKeyResponseDto, description: 'The key record', example: KEY_EXAMPLE })
  get(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string): Promise<ApiKeyResponse> {
    return this.keys.get(principal, keyId);
  }

  @Post([`${KEY}/:keyId/rotate`, `${ACCOUNT_KEY}/:keyId/rotate`])
  @RequireScopes('api_keys:manage')
  @ApiOperation({
    summary: 'Rotate an API key',
    description:
      "Issues a new key with the same name, type and scopes; the old one becomes `rotated` (with `replaced_by`), keeps working for `transition_period_seconds` (0 to 30 days), then stops. Rotating is issuing: the key's scopes must be within the caller's own (`*` only from `*`), and a customer's caller rotates only its customer's keys; otherwise 403 and nothing changes.",
  })
  @ApiCreatedResponse({
    type: CreatedApiKeyResponseDto,
    description: 'The new key record and its value, shown once',
    example: { ...KEY_EXAMPLE, key: 'sv_live_…' },
  })
  @ApiConflictResponse({ description: 'The key is revoked; only an active key can be rotated or revoked' })
  rotate(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string, @Body() body: RotateApiKeyRequestDto): Promise<CreatedApiKey> {
    return this.keys.rotate(principal, keyId, body.transition_period_seconds ?? 0);
  }

  @Post([`${KEY}/:keyId/revoke`, `${ACCOUNT_KEY}/:keyId/revoke`])
  @HttpCode(200)
  @RequireScopes('api_keys:manage')
  @ApiOperation({ summary: 'Revoke an API key', description: 'The key fails on its next request in every service (caches drop it at once).' })
  @ApiOkResponse({
    type: ApiKeyResponseDto,
    description: 'The revoked key record',
    example: { ...KEY_EXAMPLE, status: 'revoked', revoked_at: '2026-11-22T11:00:00.000Z' },
  })
  @ApiConflictResponse({ description: 'The key is revoked; only an active key can be rotated or revoked' })
  revoke(@CurrentPrincipal() principal: Principal, @Param('keyId', uuid) keyId: string): Promise<ApiKeyResponse> {
    return this.keys.revoke(principal, keyId);
  }
}
