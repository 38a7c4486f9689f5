import { Injectable } from '@nestjs/common';
import { forbidden, type SystemPrincipal } from '@platform/auth';
import { AppError } from '@platform/common';
import type { EntityManager } from 'typeorm';
import { SystemDb } from '@platform/db';
import { UsageOutbox } from '@platform/service';
import { KeyHasher } from '../api-keys/key-hasher.js';
import { provisionTenant, type ProvisionInput, type ProvisionedTenant } from './tenant-provisioning.js';

/** Tenancy on the system path: a tenant is made before it has any row RLS could admit. */
@Injectable()
export class TenantsService {
  constructor(
    private readonly system: SystemDb,
    private readonly hasher: KeyHasher,
    private readonly usage: UsageOutbox,
  ) {}

  /**
   * A tenant made in the system transaction, with its owner as the first seat: the seat's usage
   * fact is committed with the tenant (usage outbox, tenant-provisioning.ts) and published after the commit.
   */
  private async provision(reason: string, options: ProvisionInput): Promise<ProvisionedTenant> {
    const { tenant, seat } = await this.system.run(reason, (m: EntityManager) => provisionTenant(m, this.hasher, options));
    this.usage.publish([seat]);
    return tenant;
  }

  /** Initial tenant creation by the platform admin: with one live and one test key. */
  create(caller: SystemPrincipal, name: string, ownerEmail: string): Promise<ProvisionedTenant> {
    if (caller.kind !== 'admin') throw forbidden();
    return this.provision(`create tenant '${name}'`, { name, ownerEmail, withKeys: true });
  }

  /** Signup: a signed-in user creates a tenant it owns, keeping its id. */
  signup(caller: SystemPrincipal, name: string): Promise<ProvisionedTenant> {
    if (caller.kind !== 'user') throw forbidden();
    const email = caller.email;
    if (!email) throw new AppError('email_required', 400, 'The token carries no email claim; signup needs one');
    return this.provision(`signup of user ${caller.subject}`, { name, ownerEmail: email, ownerUserId: caller.subject, withKeys: false });
  }
}
