import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { decodeCursor, newId, toPage } from '@platform/common';
import { AccountSubjects, type CustomerPage, type CustomerRecord, type Envelope, hasTenant, type ResolveCustomerResponse, rpcError, validatePayload } from '@platform/messaging';
import { TenantDb, type TenantContext } from '@platform/db';
import { CreateCustomerPayload, CustomerIdPayload, ListCustomersPayload, ResolveCustomerPayload, UpdateCustomerPayload } from './customer.payloads.js';
import { customersRepository, toCustomerRecord } from './customers.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tenantOf(message: Envelope<unknown>): TenantContext {
  const context = message?.context;
  if (!context || !hasTenant(context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
  return { tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null };
}

const notFound = () => rpcError(404, 'not_found', 'Customer not found');

/** Customers are tenancy, so account stores them; the portal service serves them over HTTP. */
@Controller()
export class CustomersHandler {
  constructor(private readonly db: TenantDb) {}

  @MessagePattern(AccountSubjects.customersResolve)
  async resolve(@Payload() message: Envelope<unknown>): Promise<ResolveCustomerResponse> {
    const ctx = tenantOf(message);
    const { customerId } = validatePayload(ResolveCustomerPayload, message.data);
    if (!UUID.test(customerId)) return { exists: false };
    const row = await this.db.run({ ...ctx, scopeId: null }, (m) => customersRepository.get(m, customerId));
    return { exists: row !== undefined };
  }

  @MessagePattern(AccountSubjects.customersCreate)
  async create(@Payload() message: Envelope<unknown>): Promise<CustomerRecord> {
    const ctx = tenantOf(message);
    // A customer-scoped caller cannot create other customers.
    if (ctx.scopeId) throw rpcError(403, 'forbidden', "You don't have permission to access this resource");
    const body = validatePayload(CreateCustomerPayload, message.data);
    try {
      const row = await this.db.run(ctx, (m) => customersRepository.insert(m, ctx.tenantId, ctx.environmentId, newId(), body.name, body.external_id ?? null, body.metadata ?? {}));
      return toCustomerRecord(row);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw rpcError(409, 'duplicate_external_id', 'A customer with this external_id already exists');
      throw error;
    }
  }

  @MessagePattern(AccountSubjects.customersList)
  async list(@Payload() message: Envelope<unknown>): Promise<CustomerPage> {
    const ctx = tenantOf(message);
    const query = validatePayload(ListCustomersPayload, message.data);
    const after = decodeCursor(query.cursor, ['id'] as const);
    const rows = await this.db.run(ctx, (m) => customersRepository.list(m, after ? String(after.id) : null, query.external_id, query.limit));
    return toPage(rows, query.limit, toCustomerRecord, (r) => ({ id: r.id }));
  }

  @MessagePattern(AccountSubjects.customersGet)
  async get(@Payload() message: Envelope<unknown>): Promise<CustomerRecord> {
    const ctx = tenantOf(message);
    const { id } = validatePayload(CustomerIdPayload, message.data);
    const row = await this.db.run(ctx, (m) => customersRepository.get(m, id));
    if (!row) throw notFound();
    return toCustomerRecord(row);
  }

  @MessagePattern(AccountSubjects.customersUpdate)
  async update(@Payload() message: Envelope<unknown>): Promise<CustomerRecord> {
    const ctx = tenantOf(message);
    const { id, ...changes } = validatePayload(UpdateCustomerPayload, message.data);
    try {
      const row = await this.db.run(ctx, (m) => customersRepository.update(m, id, changes));
      if (!row) throw notFound();
      return toCustomerRecord(row);
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw rpcError(409, 'duplicate_external_id', 'A customer with this external_id already exists');
      throw error;
    }
  }

  @MessagePattern(AccountSubjects.customersDelete)
  async delete(@Payload() message: Envelope<unknown>): Promise<{ deleted: true }> {
    const ctx = tenantOf(message);
    if (ctx.scopeId) throw rpcError(403, 'forbidden', "You don't have permission to access this resource");
    const { id } = validatePayload(CustomerIdPayload, message.data);
    try {
      const deleted = await this.db.run(ctx, (m) => customersRepository.delete(m, id));
      if (!deleted) throw notFound();
      return { deleted: true };
    } catch (error) {
      if ((error as { code?: string }).code === '23503') throw rpcError(409, 'customer_in_use', 'The customer still has API keys; revoke and remove them first');
      throw error;
    }
  }
}
