import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { PageQueryDto } from '@platform/service';
import { DirectoryService, type MemberResponse, type OrganizationResponse } from './directory.service.js';

@ApiTags('account')
@Controller('account')
export class MeController {
  constructor(private readonly directory: DirectoryService) {}

  @Get('me')
  @RequireScopes()
  @ApiOperation({ summary: 'The caller: a user (JWT) or an API key' })
  @ApiOkResponse({ schema: { example: { type: 'api_key', key_id: '0194…', name: 'ci-deployer', tenant_id: '0194…', environment_id: '0194…', customer_id: null, scopes: ['*'], mode: 'live' } } })
  me(@CurrentPrincipal() p: Principal) {
    if (p.kind === 'user') {
      return { type: 'user', id: p.subject, email: p.email ?? null, tenants: p.tenants ?? [], tenant_id: p.tenantId, environment_id: p.environmentId };
    }
    return { type: 'api_key', key_id: p.subject, name: p.keyName ?? null, tenant_id: p.tenantId, environment_id: p.environmentId, customer_id: p.scopeId, scopes: p.scopes, mode: p.keyMode ?? null };
  }

  @Get('organizations')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'Organizations of the tenant' })
  @ApiOkResponse({ schema: { example: { data: [{ id: '0194…', name: 'Acme', created_at: '2026-11-22T10:00:00.000Z' }], next_cursor: null } } })
  organizations(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<OrganizationResponse>> {
    return this.directory.organizations(p, query);
  }

  @Get('team/members')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'Members of the tenant\'s teams' })
  @ApiOkResponse({ schema: { example: { data: [{ user_id: '0194…', email: 'owner@acme.test', name: null, role: 'owner', team_id: '0194…', team_name: 'Default', joined_at: '2026-11-22T10:00:00.000Z' }], next_cursor: null } } })
  members(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<MemberResponse>> {
    return this.directory.members(p, query);
  }
}
