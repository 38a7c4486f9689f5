import { ApiProperty } from '@nestjs/swagger';
import type { InvoiceResponse } from '../invoice.record.js';

export const INVOICE_EXAMPLE: InvoiceResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f20',
  period_start: '2026-10-01T00:00:00.000Z',
  period_end: '2026-11-01T00:00:00.000Z',
  plan: 'pro',
  currency: 'USD',
  lines: [
    { item: 'base', description: 'Pro plan', used: 1, included: 1, billed_quantity: 1, unit_price_minor: 4900, per: 1, amount_minor: 4900 },
    {
      item: 'runs',
      description: 'runs beyond 50000 included',
      used: 52_340,
      included: 50_000,
      billed_quantity: 2340,
      unit_price_minor: 50,
      per: 1000,
      amount_minor: 150,
    },
  ],
  subtotal_minor: 5050,
  total_minor: 5050,
  status: 'issued',
  issued_at: '2026-11-01T00:00:41.512Z',
};

export class InvoiceLineDto {
  @ApiProperty({ example: 'runs', description: '`base` (the plan fee) or a metric' })
  item!: string;

  @ApiProperty({ example: 'runs beyond 50000 included' })
  description!: string;

  @ApiProperty({ example: 52_340, description: 'Billable use in the period (the level reached, for gauges)' })
  used!: number;

  @ApiProperty({ example: 50_000 })
  included!: number;

  @ApiProperty({ example: 2340, description: 'Units beyond the included amount' })
  billed_quantity!: number;

  @ApiProperty({ example: 50, description: 'Price in minor units for each started block of `per` units' })
  unit_price_minor!: number;

  @ApiProperty({ example: 1000 })
  per!: number;

  @ApiProperty({ example: 150, description: 'Amount of the line in minor units' })
  amount_minor!: number;
}

export class InvoiceResponseDto {
  @ApiProperty({ format: 'uuid', example: INVOICE_EXAMPLE.id })
  id!: string;

  @ApiProperty({ format: 'date-time', example: INVOICE_EXAMPLE.period_start })
  period_start!: string;

  @ApiProperty({ format: 'date-time', example: INVOICE_EXAMPLE.period_end })
  period_end!: string;

  @ApiProperty({ example: 'pro', description: 'The plan in force when the period ended' })
  plan!: string;

  @ApiProperty({ example: 'USD' })
  currency!: string;

  @ApiProperty({ type: [InvoiceLineDto] })
  lines!: InvoiceLineDto[];

  @ApiProperty({ example: 5050, description: 'Sum of the lines, minor units' })
  subtotal_minor!: number;

  @ApiProperty({ example: 5050, description: 'Amount due, minor units (no taxes are computed)' })
  total_minor!: number;

  @ApiProperty({ enum: ['issued'], example: 'issued', description: 'An issued invoice never changes' })
  status!: string;

  @ApiProperty({ format: 'date-time', example: INVOICE_EXAMPLE.issued_at })
  issued_at!: string;
}
