import { describe, expect, it } from '@jest/globals';
import { invoiceLines } from './invoice-lines.js';

const plan = {
  name: 'Pro',
  base_price_minor: '4900',
  quotas: {
    runs: { included: 1000, limit: null, unit_price_minor: 50, per: 1000 },
    ai_tokens: { included: 0, limit: null, unit_price_minor: 20, per: 100_000 },
    storage_bytes: { included: 10, limit: 10, unit_price_minor: 0, per: 1 },
    notifications: { included: 5, limit: null, unit_price_minor: 3, per: 1 },
    active_workflows: { included: 1, limit: null, unit_price_minor: 100, per: 1 },
    seats: { included: 3, limit: null, unit_price_minor: 1500, per: 1 },
  },
};

describe('invoiceLines', () => {
  it('charges the base fee and each started block beyond the included amount', () => {
    const used = new Map([
      ['runs', 2001],
      ['ai_tokens', 100_000],
      ['notifications', 4],
      ['active_workflows', 3],
    ]);
    const totals = invoiceLines(plan, used, ['runs', 'ai_tokens', 'notifications', 'active_workflows', 'seats']);
    expect(totals.lines.map((l) => [l.item, l.used, l.billed_quantity, l.amount_minor])).toEqual([
      ['base', 1, 1, 4900],
      ['runs', 2001, 1001, 100],
      ['ai_tokens', 100_000, 100_000, 20],
      ['notifications', 4, 0, 0],
      ['active_workflows', 3, 2, 200],
      ['seats', 0, 0, 0],
    ]);
    expect(totals.subtotal_minor).toBe(4900 + 100 + 20 + 200);
    expect(totals.total_minor).toBe(totals.subtotal_minor);
  });
});
