import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  DataDeleteRequest,
  DataInsertRequest,
  DataQueryRequest,
  DataUpdateRequest,
  StorageSubjects,
  TenantPayload,
  type DataQueryResponse,
  type DataRowsResponse,
  type TenantMessage,
} from '@platform/messaging';
import { DataRowsService } from './data-rows.service.js';
import { DataQueryService } from './query/data-query.service.js';

/** The workflow steps `data.query`, `data.insert`, `data.update`, `data.delete`, run as their execution's caller. */
@Controller()
export class DataHandler {
  constructor(
    private readonly queries: DataQueryService,
    private readonly rows: DataRowsService,
  ) {}

  @MessagePattern(StorageSubjects.dataQuery)
  query(@TenantPayload(DataQueryRequest) { tenant, body }: TenantMessage<DataQueryRequest>): Promise<DataQueryResponse> {
    return this.queries.query(tenant, body.query, body.params ?? []);
  }

  @MessagePattern(StorageSubjects.dataInsert)
  async insert(@TenantPayload(DataInsertRequest) { tenant, body }: TenantMessage<DataInsertRequest>): Promise<DataRowsResponse> {
    return { rows: await this.rows.insert(tenant, body.table, body.rows) };
  }

  @MessagePattern(StorageSubjects.dataUpdate)
  async update(@TenantPayload(DataUpdateRequest) { tenant, body }: TenantMessage<DataUpdateRequest>): Promise<DataRowsResponse> {
    return { rows: [await this.rows.update(tenant, body.table, body.id, body.values)] };
  }

  @MessagePattern(StorageSubjects.dataDelete)
  async delete(@TenantPayload(DataDeleteRequest) { tenant, body }: TenantMessage<DataDeleteRequest>): Promise<DataRowsResponse> {
    return { rows: [await this.rows.delete(tenant, body.table, body.id)] };
  }
}
