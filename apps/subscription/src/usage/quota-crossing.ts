import type { UsageFact, UsageMetric } from '@platform/messaging';
import type { QuotaTerms } from '../plans/plan.record.js';
import type { AggregateResult } from './usage.repository.js';

/**
 * Whether newly counted facts took a capped quota across its limit, either way (used up, or freed
 * by a negative fact): only then are the gateways told, not at every fact.
 */
export function crossedQuotas(quotas: Record<UsageMetric, QuotaTerms>, facts: UsageFact[], result: AggregateResult): boolean {
  const added = new Map<string, number>();
  for (const fact of facts) {
    if (fact.keyMode === 'test' || !result.counted.has(fact.eventId.toLowerCase())) continue;
    added.set(fact.metric, (added.get(fact.metric) ?? 0) + fact.quantity);
  }
  for (const [metric, after] of result.totals) {
    const limit = quotas[metric as UsageMetric]?.limit ?? null;
    if (limit === null) continue;
    const before = after - (added.get(metric) ?? 0);
    if (before < limit !== after < limit) return true;
  }
  return false;
}
