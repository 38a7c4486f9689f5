import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { decodeCursor, type Page, toPage } from '@platform/common';
import { ApiTag, PageQueryDto } from '@platform/service';
import { TenantDb } from '@platform/db';

interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

interface MemberRow {
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  team_id: string;
  team_name: string;
  joined_at: Date;
}

@ApiTag('account', 'The caller, and the organizations and team members of its tenant.')
@Controller('account')
export class MeController {
  constructor(private readonly db: TenantDb) {}

  @Get('me')
  @RequireScopes()
  @ApiOperation({ summary: 'Describe the caller', description: 'Who is calling: for a JWT the user (`type: user`, email, tenants), for an API key the key (`type: api_key`, name, scopes, mode, customer scope); both with the tenant and environment in effect.' })
  @ApiOkResponse({ description: 'The caller', schema: { example: { type: 'api_key', key_id: '0194…', name: 'ci-deployer', tenant_id: '0194…', environment_id: '0194…', customer_id: null, scopes: ['*'], mode: 'live' } } })
  me(@CurrentPrincipal() p: Principal) {
    if (p.kind === 'user') {
      return { type: 'user', id: p.subject, email: p.email ?? null, tenants: p.tenants ?? [], tenant_id: p.tenantId, environment_id: p.environmentId };
    }
    return { type: 'api_key', key_id: p.subject, name: p.keyName ?? null, tenant_id: p.tenantId, environment_id: p.environmentId, customer_id: p.scopeId, scopes: p.scopes, mode: p.keyMode ?? null };
  }

  @Get('organizations')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'List organizations', description: 'The organizations of the tenant, by id.' })
  @ApiOkResponse({ description: 'One page of organizations', schema: { example: { data: [{ id: '0194…', name: 'Acme', created_at: '2026-11-22T10:00:00.000Z' }], next_cursor: null } } })
  async organizations(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto): Promise<Page<{ id: string; name: string; created_at: string }>> {
    const after = decodeCursor(query.cursor, ['id'] as const);
    const rows = (await this.db.run(p, (m) =>
      m.query(`select id, name, created_at from account.organizations where ($1::uuid is null or id > $1) order by id limit $2`, [after?.id ?? null, query.limit + 1]),
    )) as OrganizationRow[];
    return toPage(rows, query.limit, (r) => ({ ...r, created_at: r.created_at.toISOString() }), (r) => ({ id: r.id }));
  }

  @Get('team/members')
  @RequireScopes('account:read')
  @ApiOperation({ summary: 'List team members', description: 'The users of the tenant\'s teams with their role, by team.' })
  @ApiOkResponse({ description: 'One page of members', schema: { example: { data: [{ user_id: '0194…', email: 'owner@acme.test', name: null, role: 'owner', team_id: '0194…', team_name: 'Default', joined_at: '2026-11-22T10:00:00.000Z' }], next_cursor: null } } })
  async members(@CurrentPrincipal() p: Principal, @Query() query: PageQueryDto) {
    const after = decodeCursor(query.cursor, ['team', 'user'] as const);
    const rows = (await this.db.run(p, (m) =>
      m.query(
        `select tm.user_id, u.email, u.name, tm.role, t.id as team_id, t.name as team_name, tm.created_at as joined_at
           from account.team_members tm
           join account.teams t on t.tenant_id = tm.tenant_id and t.id = tm.team_id
           join account.users u on u.id = tm.user_id
          where ($1::uuid is null or (tm.team_id, tm.user_id) > ($1::uuid, $2::uuid))
          order by tm.team_id, tm.user_id limit $3`,
        [after?.team ?? null, after?.user ?? null, query.limit + 1],
      ),
    )) as MemberRow[];
    return toPage(rows, query.limit, (r) => ({ ...r, joined_at: r.joined_at.toISOString() }), (r) => ({ team: r.team_id, user: r.user_id }));
  }
}
