import { newId } from '@platform/common';
import { usageEventId } from '@platform/messaging';
import { pendingUsage, writeUsageFacts, type PendingUsage } from '@platform/service';
import type { EntityManager } from 'typeorm';
import type { KeyHasher } from '../api-keys/key-hasher.js';
import { issueKey, PLATFORM_ISSUER } from '../api-keys/key-issuing.js';
import { tenantsRepository } from './tenants.repository.js';

export interface ProvisionInput {
  name: string;
  ownerEmail: string;
  /** A JWT subject signing up keeps its id; otherwise one is made. */
  ownerUserId?: string;
  /** The first-start command and the admin route print one live and one test key (scope `*`). */
  withKeys: boolean;
  /** Who made it, for the seat's usage fact, when not the current request's actor (the admin command). */
  actor?: string;
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
 * optionally one tenant key for each, and its owner's seat. Runs inside the caller's transaction
 * on the system path (TenantsService through SystemDb, or the admin command's own connection):
 * all of it or none.
 *
 * The seat is a usage fact in the account schema's usage outbox, written here so that every way
 * of making a tenant meters it: the service publishes it after its commit, and a tenant made by
 * the admin command on the database has it published by the account service's outbox relay.
 */
export async function provisionTenant(m: EntityManager, hasher: KeyHasher, input: ProvisionInput): Promise<{ tenant: ProvisionedTenant; seat: PendingUsage }> {
  const tenantId = newId();
  const organizationId = newId();
  const production = newId();
  const sandbox = newId();
  await tenantsRepository.insertTenant(m, tenantId, input.name);
  const userId = await tenantsRepository.upsertUser(m, input.ownerUserId ?? newId(), input.ownerEmail);
  await tenantsRepository.insertOwnerMembership(m, tenantId, userId);
  await tenantsRepository.insertOrganizationWithDefaultTeam(m, tenantId, organizationId, newId(), input.name, userId);
  await tenantsRepository.insertDataPlanes(m, tenantId, production, sandbox);
  const result: ProvisionedTenant = {
    tenant_id: tenantId,
    user_id: userId,
    organization_id: organizationId,
    production_data_plane_id: production,
    sandbox_data_plane_id: sandbox,
  };
  if (input.withKeys) {
    for (const [mode, environmentId] of [
      ['live', production],
      ['test', sandbox],
    ] as const) {
      const { value } = await issueKey(m, hasher, PLATFORM_ISSUER, {
        tenantId,
        environmentId,
        name: `${mode === 'live' ? 'Production' : 'Sandbox'} owner key`,
        type: 'tenant',
        mode,
        customerId: null,
        scopes: ['*'],
        expiresAt: null,
      });
      if (mode === 'live') result.live_key = value;
      else result.test_key = value;
    }
  }
  const seat = pendingUsage(
    { tenantId, environmentId: production },
    { metric: 'seats', quantity: 1, eventId: usageEventId('seat', tenantId, userId) },
    input.actor ? { actor: input.actor } : {},
  );
  await writeUsageFacts(m, ACCOUNT_SCHEMA, [seat]);
  return { tenant: result, seat };
}

/** The account service's schema, whose usage outbox holds the seat facts. */
const ACCOUNT_SCHEMA = 'account';
