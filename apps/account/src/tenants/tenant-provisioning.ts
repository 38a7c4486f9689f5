import { displayPrefix, generateApiKey } from '@platform/auth';
import { newId } from '@platform/common';
import type { EntityManager } from 'typeorm';
import { apiKeysRepository } from '../api-keys/api-keys.repository.js';
import type { KeyHasher } from '../api-keys/key-hasher.js';

export interface ProvisionInput {
  name: string;
  ownerEmail: string;
  /** A JWT subject signing up keeps its id; otherwise one is made. */
  ownerUserId?: string;
  /** The first-start command and the admin route print one live and one test key (scope `*`). */
  withKeys: boolean;
}

export interface ProvisionedTenant {
  tenant_id: string;
  user_id: string;
  organization_id: string;
  production_data_plane_id: string;
  sandbox_data_plane_id: string;
  live_key?: string;
  test_key?: string;
}

/**
 * A tenant with everything it starts with: its owner (an existing user of that e-mail is reused),
 * an organization with a default team, the `production` (live) and `sandbox` (test) data planes,
 * and optionally one tenant key for each. One transaction: all of it or none. Runs on the
 * system path (SystemDb or the admin command's system connection): the tenant does not exist yet.
 */
export async function provisionTenant(m: EntityManager, hasher: KeyHasher, input: ProvisionInput): Promise<ProvisionedTenant> {
  const tenantId = newId();
  const organizationId = newId();
  const teamId = newId();
  const production = newId();
  const sandbox = newId();
  await m.query(`insert into account.tenants (id, name) values ($1, $2)`, [tenantId, input.name]);
  const [user] = (await m.query(
    `insert into account.users (id, email) values ($1, $2)
     on conflict ((lower(email))) do update set email = account.users.email
     returning id`,
    [input.ownerUserId ?? newId(), input.ownerEmail],
  )) as { id: string }[];
  await m.query(`insert into account.memberships (tenant_id, user_id, role) values ($1, $2, 'owner')`, [tenantId, user.id]);
  await m.query(`insert into account.organizations (tenant_id, id, name) values ($1, $2, $3)`, [tenantId, organizationId, input.name]);
  await m.query(`insert into account.teams (tenant_id, id, organization_id, name) values ($1, $2, $3, 'Default')`, [tenantId, teamId, organizationId]);
  await m.query(`insert into account.team_members (tenant_id, team_id, user_id, role) values ($1, $2, $3, 'owner')`, [tenantId, teamId, user.id]);
  await m.query(`insert into account.environments (tenant_id, id, name, mode) values ($1, $2, 'production', 'live'), ($1, $3, 'sandbox', 'test')`, [tenantId, production, sandbox]);
  const result: ProvisionedTenant = { tenant_id: tenantId, user_id: user.id, organization_id: organizationId, production_data_plane_id: production, sandbox_data_plane_id: sandbox };
  if (input.withKeys) {
    for (const [mode, environmentId] of [['live', production], ['test', sandbox]] as const) {
      const value = generateApiKey(mode);
      await apiKeysRepository.insert(m, {
        tenantId,
        environmentId,
        id: newId(),
        name: `${mode === 'live' ? 'Production' : 'Sandbox'} owner key`,
        type: 'tenant',
        mode,
        customerId: null,
        scopes: ['*'],
        prefix: displayPrefix(value),
        hash: hasher.hash(value),
        expiresAt: null,
        createdBy: 'system:provisioning',
      });
      if (mode === 'live') result.live_key = value;
      else result.test_key = value;
    }
  }
  return result;
}
