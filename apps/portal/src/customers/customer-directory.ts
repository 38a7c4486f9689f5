import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@platform/common';
import { AccountSubjects, Bus, messageContext, type TenantRef } from '@platform/messaging';

/** Customers are the account service's: whether one exists in the tenant's environment is asked there. */
@Injectable()
export class CustomerDirectory {
  constructor(private readonly bus: Bus) {}

  /** An existing, active customer of the tenant environment. */
  async isActive(tenant: TenantRef, customerId: string): Promise<boolean> {
    return (await this.bus.request(AccountSubjects.customersResolve, { customerId }, messageContext({ ...tenant, scopeId: null }))).exists;
  }

  /** 400 naming the field for an id that is no active customer of this tenant environment (another tenant's reads the same). */
  async requireAll(tenant: TenantRef, ids: readonly string[], field: (index: number) => string): Promise<void> {
    const answers = await Promise.all(
      ids.map((customerId) => this.bus.request(AccountSubjects.customersResolve, { customerId }, messageContext({ ...tenant, scopeId: null }))),
    );
    const missing = answers.flatMap((a, i) => (a.exists ? [] : [{ field: field(i), message: 'no customer with this id' }]));
    if (missing.length) throw new ValidationFailedError(missing);
  }
}
