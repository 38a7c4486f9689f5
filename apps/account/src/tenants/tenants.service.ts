import { Injectable } from '@nestjs/common';
import { forbidden, type SystemPrincipal } from '@platform/auth';
import { AppError, isUuid } from '@platform/common';
import { SystemDb } from '@platform/db';
import { UsageMeter, usageEventId, type ResolveEnvironmentRequest, type ResolveEnvironmentResponse } from '@platform/messaging';
import { KeyHasher } from '../api-keys/key-hasher.js';
import { provisionTenant, type ProvisionedTenant } from './tenant-provisioning.js';
import { environmentsRepository } from './tenants.repository.js';

/** Tenancy on the system path: a tenant is made before it has any row RLS could admit. */
@Injectable()
export class TenantsService {
  constructor(
    private readonly system: SystemDb,
    private readonly hasher: KeyHasher,
    private readonly usage: UsageMeter,
  ) {}

  /** The owner is the tenant's first seat. */
  private seated(tenant: ProvisionedTenant): ProvisionedTenant {
    const seat = { metric: 'seats' as const, quantity: 1, eventId: usageEventId('seat', tenant.tenant_id, tenant.user_id) };
    this.usage.record({ tenantId: tenant.tenant_id, environmentId: tenant.production_data_plane_id }, seat).catch(() => undefined);
    return tenant;
  }

  /** Initial tenant creation by the platform admin: with one live and one test key. */
  create(caller: SystemPrincipal, name: string, ownerEmail: string): Promise<ProvisionedTenant> {
    if (caller.kind !== 'admin') throw forbidden();
    return this.system.run(`create tenant '${name}'`, (m) => provisionTenant(m, this.hasher, { name, ownerEmail, withKeys: true })).then((t) => this.seated(t));
  }

  /** Signup: a signed-in user creates a tenant it owns, keeping its id. */
  signup(caller: SystemPrincipal, name: string): Promise<ProvisionedTenant> {
    if (caller.kind !== 'user') throw forbidden();
    const email = caller.email;
    if (!email) throw new AppError('email_required', 400, 'The token carries no email claim; signup needs one');
    return this.system
      .run(`signup of user ${caller.subject}`, (m) =>
        provisionTenant(m, this.hasher, { name, ownerEmail: email, ownerUserId: caller.subject, withKeys: false }),
      )
      .then((t) => this.seated(t));
  }

  /** A JWT caller's environment: the one named by X-SELECTED-ENV if it is the tenant's, else production. */
  async resolveEnvironment(request: ResolveEnvironmentRequest): Promise<ResolveEnvironmentResponse> {
    const { tenantId, environmentId } = request;
    if (!isUuid(tenantId) || (environmentId !== undefined && !isUuid(environmentId))) return { found: false };
    const row = await this.system.run(
      'resolve the environment of a JWT caller',
      (m) => environmentsRepository.resolve(m, tenantId, environmentId ?? null),
      'debug',
    );
    return row ? { found: true, environmentId: row.id, mode: row.mode } : { found: false };
  }
}
