import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiTag, PageQueryDto } from '@platform/service';
import { DirectoryService, type MemberResponse, type OrganizationResponse } from './directory.service.js';

@ApiTag('account', 'The caller, and the organizations and team members of its tenant.')
@Controller('account')
export class MeController {
  constructor(private readonly directory: DirectoryService) {}

  @Get('me')
  @RequireScopes()
  @ApiOperation({
    summary: 'Describe the caller',
    description:
      'Who is calling: for a JWT the user (`type: user`, email, tenants), for an API key the key (`type: api_key`, name, scopes, mode, customer scope); both with the tenant and environment in effect.',
  })
  @ApiOkResponse({
    description: 'The caller',
    schema: {
      example: {
        type: 'api_key',
        key_id: '0194…',
        name: 'ci-deployer',
        tenant_id: '0194…',
        environment_id: '0194…',
        customer_id: null,
        scopes: ['*'],
        mode: 'live',
      },
    },
  })
  me(@CurrentPrincipal() p: Principal) {
    if (p.kind === 'user') {
      return { type: 'user', id: p.subject, email: p.email ?? null, tenants: p.tenants ?? [], tenant_id: p.tenantId, environment_id: p.environmentId };
    }
    return {
      type: 'api_key',
      key_id: p.subject,
      name: p.keyName ?? null,
      tenant_id: p.tenantId,
      environment_id: p.environmentId,
      customer_id: p.scopeId,
      scopes: p.scopes,
      mode: p.keyMode ?? null,
    };
  }

  @Get('organizations')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'List organizations', description: 'The organizations of the tenant, by id.' })
  @ApiOkResponse({
    description: 'One page of organizations',
    schema: { example: { data: [{ id: '0194…', name: 'Acme', created_at: '2026-11-22T10:00:00.000Z' }], next_cursor: null } },
  })
  organizations(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<OrganizationResponse>> {
    return this.directory.organizations(p, query);
  }

  @Get('team/members')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'List team members', description: "The users of the tenant's teams with their role, by team." })
  @ApiOkResponse({
    description: 'One page of members',
    schema: {
      example: {
        data: [
          {
            user_id: '0194…',
            email: 'owner@acme.test',
            name: null,
            role: 'owner',
            team_id: '0194…',
            team_name: 'Default',
            joined_at: '2026-11-22T10:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    },
  })
  members(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<MemberResponse>> {
    return this.directory.members(p, query);
  }
}
