import type { EntityManager } from 'typeorm';

export interface EnvironmentRow {
  id: string;
  mode: 'live' | 'test';
}

export const environmentsRepository = {
  /** A data plane's mode, in the caller's tenant (RLS). */
  async mode(m: EntityManager, id: string): Promise<'live' | 'test' | undefined> {
    const [plane] = await m.query<{ mode: 'live' | 'test' }[]>(`select mode from account.environments where id = $1`, [id]);
    return plane?.mode;
  },

  /** A JWT caller's environment across tenants (system path): the one named, or the tenant's production. */
  async resolve(m: EntityManager, tenantId: string, environmentId: string | null): Promise<EnvironmentRow | undefined> {
    const rows = await m.query<EnvironmentRow[]>(
      `select e.id, e.mode from account.environments e join account.tenants t on t.id = e.tenant_id
        where e.tenant_id = $1 and t.status = 'active' and (($2::uuid is null and e.name = 'production') or e.id = $2)`,
      [tenantId, environmentId],
    );
    return rows[0];
  },
};
