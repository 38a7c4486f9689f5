import type { EntityManager } from 'typeorm';

export interface OrganizationRow {
  id: string;
  name: string;
  created_at: Date;
}

export interface MemberRow {
  user_id: string;
  email: string;
  name: string | null;
  role: string;
  team_id: string;
  team_name: string;
  joined_at: Date;
}

/** The tenant's organizations and team members; every query runs under the caller's RLS context. */
export const directoryRepository = {
  async organizations(m: EntityManager, afterId: string | null, limit: number): Promise<OrganizationRow[]> {
    return await m.query<OrganizationRow[]>(`select id, name, created_at from account.organizations where ($1::uuid is null or id > $1) order by id limit $2`, [
      afterId,
      limit + 1,
    ]);
  },

  async members(m: EntityManager, after: { team: string; user: string } | null, limit: number): Promise<MemberRow[]> {
    return await m.query<MemberRow[]>(
      `select tm.user_id, u.email, u.name, tm.role, t.id as team_id, t.name as team_name, tm.created_at as joined_at
         from account.team_members tm
         join account.teams t on t.tenant_id = tm.tenant_id and t.id = tm.team_id
         join account.users u on u.id = tm.user_id
        where ($1::uuid is null or (tm.team_id, tm.user_id) > ($1::uuid, $2::uuid))
        order by tm.team_id, tm.user_id limit $3`,
      [after?.team ?? null, after?.user ?? null, limit + 1],
    );
  },

  async check(m: EntityManager, userId: string | null, teamId: string | null): Promise<boolean> {
    const rows = await m.query<{ ok: boolean }[]>(
      `select case
         when $2::uuid is null then exists (select 1 from account.memberships where user_id = $1)
         when $1::uuid is null then exists (select 1 from account.teams where id = $2)
         else exists (select 1 from account.team_members where team_id = $2 and user_id = $1) end as ok`,
      [userId, teamId],
    );
    return rows[0]?.ok === true;
  },
};
