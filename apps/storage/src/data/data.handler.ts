import { Controller } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { rpcError, validatePayload } from '@platform/common';
import type { TenantContext } from '@platform/db';
import { StorageSubjects, hasTenant, type DataQueryResponse, type DataRowsResponse, type Envelope } from '@platform/messaging';
import { DataRowsService } from './data-rows.service.js';
import { DataDeletePayload, DataInsertPayload, DataQueryPayload, DataUpdatePayload } from './dto/data.payloads.js';
import { DataQueryService } from './query/data-query.service.js';

/** The message's tenant, environment and customer scope: the step runs as its execution's caller. */
function tenantOf(message: Envelope<unknown>): TenantContext {
  const context = message?.context;
  if (!context || !hasTenant(context)) throw rpcError(400, 'tenant_required', 'The message carries no tenant context');
  return { tenantId: context.tenantId, environmentId: context.environmentId, scopeId: context.scopeId ?? null };
}

/** The workflow steps `data.query`, `data.insert`, `data.update`, `data.delete`. */
@Controller()
export class DataHandler {
  constructor(
    private readonly queries: DataQueryService,
    private readonly rows: DataRowsService,
  ) {}

  @MessagePattern(StorageSubjects.dataQuery)
  query(@Payload() message: Envelope<unknown>): Promise<DataQueryResponse> {
    const ctx = tenantOf(message);
    const body = validatePayload(DataQueryPayload, message.data);
    return this.queries.query(ctx, body.query, body.params ?? []);
  }

  @MessagePattern(StorageSubjects.dataInsert)
  async insert(@Payload() message: Envelope<unknown>): Promise<DataRowsResponse> {
    const ctx = tenantOf(message);
    const body = validatePayload(DataInsertPayload, message.data);
    return { rows: await this.rows.insert(ctx, body.table, body.rows) };
  }

  @MessagePattern(StorageSubjects.dataUpdate)
  async update(@Payload() message: Envelope<unknown>): Promise<DataRowsResponse> {
    const ctx = tenantOf(message);
    const body = validatePayload(DataUpdatePayload, message.data);
    return { rows: [await this.rows.update(ctx, body.table, body.id, body.values)] };
  }

  @MessagePattern(StorageSubjects.dataDelete)
  async delete(@Payload() message: Envelope<unknown>): Promise<DataRowsResponse> {
    const ctx = tenantOf(message);
    const body = validatePayload(DataDeletePayload, message.data);
    return { rows: [await this.rows.delete(ctx, body.table, body.id)] };
  }
}
