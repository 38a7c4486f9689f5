import type { EntityManager } from 'typeorm';

/** The rows a new tenant starts with; only ever written on the system path (the tenant does not exist yet). */
export const tenantsRepository = {
  async insertTenant(m: EntityManager, id: string, name: string): Promise<void> {
    await m.query(`insert into account.tenants (id, name) values ($1, $2)`, [id, name]);
  },

  /** An existing user of that e-mail is reused (signup of a second tenant by the same person). */
  async upsertUser(m: EntityManager, id: string, email: string): Promise<string> {
    const [user] = await m.query<{ id: string }[]>(
      `insert into account.users (id, email) values ($1, $2)
       on conflict ((lower(email))) do update set email = account.users.email
       returning id`,
      [id, email],
    );
    return user.id;
  },

  async insertOwnerMembership(m: EntityManager, tenantId: string, userId: string): Promise<void> {
    await m.query(`insert into account.memberships (tenant_id, user_id, role) values ($1, $2, 'owner')`, [tenantId, userId]);
  },

  async insertOrganizationWithDefaultTeam(
    m: EntityManager,
    tenantId: string,
    organizationId: string,
    teamId: string,
    name: string,
    ownerId: string,
  ): Promise<void> {
    await m.query(`insert into account.organizations (tenant_id, id, name) values ($1, $2, $3)`, [tenantId, organizationId, name]);
    await m.query(`insert into account.teams (tenant_id, id, organization_id, name) values ($1, $2, $3, 'Default')`, [tenantId, teamId, organizationId]);
    await m.query(`insert into account.team_members (tenant_id, team_id, user_id, role) values ($1, $2, $3, 'owner')`, [tenantId, teamId, ownerId]);
  },

  async insertDataPlanes(m: EntityManager, tenantId: string, productionId: string, sandboxId: string): Promise<void> {
    await m.query(`insert into account.environments (tenant_id, id, name, mode) values ($1, $2, 'production', 'live'), ($1, $3, 'sandbox', 'test')`, [
      tenantId,
      productionId,
      sandboxId,
    ]);
  },
};
