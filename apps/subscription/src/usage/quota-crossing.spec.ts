import { describe, expect, it } from '@jest/globals';
import type { UsageFact } from '@platform/messaging';
import type { QuotaTerms } from '../plans/plan.record.js';
import { crossedQuotas } from './quota-crossing.js';

const cap = (limit: number | null): QuotaTerms => ({ included: 0, limit, unit_price_minor: 0, per: 1 });
const quotas = { runs: cap(3), ai_tokens: cap(null), storage_bytes: cap(100), notifications: cap(5), active_workflows: cap(1), seats: cap(1) };
const fact = (eventId: string, metric: UsageFact['metric'], quantity: number, keyMode?: 'test'): UsageFact => ({
  eventId,
  metric,
  quantity,
  keyMode,
  occurredAt: '',
});

describe('crossedQuotas', () => {
  it('is true only when a capped total crosses its limit', () => {
    const facts = [fact('a', 'runs', 1)];
    expect(crossedQuotas(quotas, facts, { counted: new Set(['a']), totals: new Map([['runs', 3]]) })).toBe(true);
    expect(crossedQuotas(quotas, facts, { counted: new Set(['a']), totals: new Map([['runs', 2]]) })).toBe(false);
    expect(crossedQuotas(quotas, facts, { counted: new Set(['a']), totals: new Map([['runs', 4]]) })).toBe(false);
    expect(crossedQuotas(quotas, [fact('b', 'ai_tokens', 10)], { counted: new Set(['b']), totals: new Map([['ai_tokens', 1e9]]) })).toBe(false);
  });

  it('sees a quota freed by a negative fact, and ignores replays and test usage', () => {
    expect(crossedQuotas(quotas, [fact('a', 'storage_bytes', -50)], { counted: new Set(['a']), totals: new Map([['storage_bytes', 70]]) })).toBe(true);
    expect(crossedQuotas(quotas, [fact('a', 'runs', 1)], { counted: new Set(), totals: new Map() })).toBe(false);
    const mixed = [fact('a', 'runs', 1), fact('b', 'runs', 1, 'test')];
    expect(crossedQuotas(quotas, mixed, { counted: new Set(['a', 'b']), totals: new Map([['runs', 3]]) })).toBe(true);
  });
});
