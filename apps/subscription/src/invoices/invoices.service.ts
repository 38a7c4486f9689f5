import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { NotFoundError, decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import type { PageQueryDto } from '@platform/service';
import { tenantWide } from '../subscriptions/index.js';
import { assertTenantWide } from '../subscriptions/subscriptions.service.js';
import { toInvoiceResponse, type InvoiceResponse } from './invoice.record.js';
import { invoicesRepository } from './invoices.repository.js';

/** The tenant's invoices, newest first; never a customer key's business. */
@Injectable()
export class InvoicesService {
  constructor(private readonly db: TenantDb) {}

  async list(p: Principal, q: PageQueryDto): Promise<Page<InvoiceResponse>> {
    assertTenantWide(p);
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(tenantWide(p.tenantId), (m) => invoicesRepository.list(m, after?.id, q.limit));
    return toPage(rows, q.limit, toInvoiceResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<InvoiceResponse> {
    assertTenantWide(p);
    const row = await this.db.run(tenantWide(p.tenantId), (m) => invoicesRepository.get(m, id));
    if (!row) throw new NotFoundError('Invoice');
    return toInvoiceResponse(row);
  }
}
