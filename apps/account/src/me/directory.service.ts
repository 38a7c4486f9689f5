import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import type { PageQueryDto } from '@platform/service';
import { directoryRepository, type MemberRow } from './directory.repository.js';

export interface OrganizationResponse {
  id: string;
  name: string;
  created_at: string;
}

export type MemberResponse = Omit<MemberRow, 'joined_at'> & { joined_at: string };

@Injectable()
export class DirectoryService {
  constructor(private readonly db: TenantDb) {}

  async organizations(principal: Principal, query: PageQueryDto): Promise<Page<OrganizationResponse>> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(principal, (m) => directoryRepository.organizations(m, after?.id ?? null, query.limit));
    return toPage(
      rows,
      query.limit,
      (r) => ({ ...r, created_at: r.created_at.toISOString() }),
      (r) => ({ id: r.id }),
    );
  }

  async members(principal: Principal, query: PageQueryDto): Promise<Page<MemberResponse>> {
    const after = decodeCursor(query.cursor, { team: 'uuid', user: 'uuid' });
    const rows = await this.db.run(principal, (m) => directoryRepository.members(m, after ? { team: after.team, user: after.user } : null, query.limit));
    return toPage(
      rows,
      query.limit,
      (r) => ({ ...r, joined_at: r.joined_at.toISOString() }),
      (r) => ({ team: r.team_id, user: r.user_id }),
    );
  }

  /** In the tenant: a user who is a member, a team, or a user in a team (both given). Nothing given: false. */
  async check(ctx: TenantContext, q: { userId?: string; teamId?: string }): Promise<boolean> {
    if (!q.userId && !q.teamId) return false;
    return this.db.run(ctx, (m) => directoryRepository.check(m, q.userId ?? null, q.teamId ?? null));
  }
}
