import { Injectable } from '@nestjs/common';
import { decodeCursor, isUuid, newId, toPage } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import {
  AccountSubjects,
  Bus,
  messageContext,
  type CreateCustomerRequest,
  type CustomerPage,
  type CustomerRecord,
  type ListCustomersRequest,
  type UpdateCustomerRequest,
} from '@platform/messaging';
import { CustomerErrors, isUniqueViolation } from './customers.errors.js';
import { customersRepository, toCustomerRecord } from './customers.repository.js';

/** Customers are tenancy, so account stores them; the portal service serves them over HTTP. */
@Injectable()
export class CustomersService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
  ) {}

  /** Does this scope exist in the tenant's environment? Asked tenant-wide, whatever the caller's scope. */
  async exists(ctx: TenantContext, customerId: string): Promise<boolean> {
    if (!isUuid(customerId)) return false;
    const row = await this.db.run({ ...ctx, scopeId: null }, (m) => customersRepository.get(m, customerId));
    return row !== undefined && row.disabled_at === null;
  }

  async create(ctx: TenantContext, body: CreateCustomerRequest): Promise<CustomerRecord> {
    if (ctx.scopeId) throw CustomerErrors.forbidden();
    try {
      const row = await this.db.run(ctx, (m) =>
        customersRepository.insert(m, ctx.tenantId, ctx.environmentId, newId(), body.name, body.external_id ?? null, body.metadata ?? {}),
      );
      return toCustomerRecord(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw CustomerErrors.duplicateExternalId();
      throw error;
    }
  }

  async list(ctx: TenantContext, query: ListCustomersRequest): Promise<CustomerPage> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(ctx, (m) =>
      customersRepository.list(m, {
        afterId: after?.id ?? null,
        externalId: query.external_id,
        status: query.status,
        name: query.name,
        limit: query.limit,
      }),
    );
    return toPage(rows, query.limit, toCustomerRecord, (r) => ({ id: r.id }));
  }

  async get(ctx: TenantContext, id: string): Promise<CustomerRecord> {
    const row = await this.db.run(ctx, (m) => customersRepository.get(m, id));
    if (!row) throw CustomerErrors.notFound();
    return toCustomerRecord(row);
  }

  /** Disabling drops the verification caches of the customer's keys everywhere: they are refused at once. */
  async update(ctx: TenantContext, { id, ...changes }: UpdateCustomerRequest): Promise<CustomerRecord> {
    if (changes.status !== undefined && ctx.scopeId) throw CustomerErrors.forbidden();
    try {
      const { row, keyIds } = await this.db.run(ctx, async (m) => {
        const updated = await customersRepository.update(m, id, changes);
        return { row: updated, keyIds: updated && changes.status === 'disabled' ? await customersRepository.liveKeyIds(m, id) : [] };
      });
      if (!row) throw CustomerErrors.notFound();
      if (keyIds.length) this.bus.emit(AccountSubjects.keysRevoked, { keyIds }, messageContext(ctx));
      return toCustomerRecord(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw CustomerErrors.duplicateExternalId();
      throw error;
    }
  }

  /**
   * Deleting a customer revokes its keys first (their records stay, as every revoked key's does),
   * and every service drops its cached verification of them once the deletion has committed.
   */
  async delete(ctx: TenantContext, id: string): Promise<{ deleted: true }> {
    if (ctx.scopeId) throw CustomerErrors.forbidden();
    const keyIds = await this.db.run(ctx, async (m) => {
      if (!(await customersRepository.lock(m, id))) throw CustomerErrors.notFound();
      const revoked = await customersRepository.revokeKeys(m, id);
      await customersRepository.delete(m, id);
      return revoked;
    });
    if (keyIds.length) {
      this.bus.emit(AccountSubjects.keysRevoked, { keyIds }, messageContext(ctx));
      await this.bus.connection.flush();
    }
    return { deleted: true };
  }
}
