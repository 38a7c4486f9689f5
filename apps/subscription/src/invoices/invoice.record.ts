import type { InvoiceLine } from './invoice-lines.js';

export interface InvoiceRow {
  tenant_id: string;
  id: string;
  period_start: Date;
  period_end: Date;
  plan_code: string;
  currency: string;
  lines: InvoiceLine[];
  subtotal_minor: string;
  total_minor: string;
  status: 'issued';
  issued_at: Date;
}

export interface InvoiceResponse {
  id: string;
  period_start: string;
  period_end: string;
  plan: string;
  currency: string;
  lines: InvoiceLine[];
  subtotal_minor: number;
  total_minor: number;
  status: 'issued';
  issued_at: string;
}

export function toInvoiceResponse(row: InvoiceRow): InvoiceResponse {
  return {
    id: row.id,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    plan: row.plan_code,
    currency: row.currency,
    lines: row.lines,
    subtotal_minor: Number(row.subtotal_minor),
    total_minor: Number(row.total_minor),
    status: row.status,
    issued_at: row.issued_at.toISOString(),
  };
}
