import type { UsageMetric } from '@platform/messaging';
import type { PlanRow } from '../plans/plan.record.js';

export interface InvoiceLine {
  /** `base` for the plan's fee, else the metric. */
  item: 'base' | UsageMetric;
  description: string;
  /** Billable use in the period (the level reached, for gauges); 1 for the base fee. */
  used: number;
  included: number;
  /** Units beyond the included amount, rounded up to whole `per` blocks when priced. */
  billed_quantity: number;
  unit_price_minor: number;
  per: number;
  amount_minor: number;
}

export interface InvoiceTotals {
  lines: InvoiceLine[];
  subtotal_minor: number;
  total_minor: number;
}

/**
 * An invoice's lines from a period's billable totals and the plan: the base fee, then one line
 * per metric charging each started block of `per` units beyond the included amount.
 */
export function invoiceLines(
  plan: Pick<PlanRow, 'name' | 'base_price_minor' | 'quotas'>,
  used: Map<string, number>,
  metrics: readonly UsageMetric[],
): InvoiceTotals {
  const base = Number(plan.base_price_minor);
  const lines: InvoiceLine[] = [
    { item: 'base', description: `${plan.name} plan`, used: 1, included: 1, billed_quantity: 1, unit_price_minor: base, per: 1, amount_minor: base },
  ];
  for (const metric of metrics) {
    const terms = plan.quotas[metric] ?? { included: 0, limit: null, unit_price_minor: 0, per: 1 };
    const quantity = used.get(metric) ?? 0;
    const beyond = Math.max(0, quantity - terms.included);
    const blocks = Math.ceil(beyond / Math.max(1, terms.per));
    lines.push({
      item: metric,
      description: `${metric} beyond ${terms.included} included`,
      used: quantity,
      included: terms.included,
      billed_quantity: beyond,
      unit_price_minor: terms.unit_price_minor,
      per: terms.per,
      amount_minor: blocks * terms.unit_price_minor,
    });
  }
  const subtotal = lines.reduce((sum, line) => sum + line.amount_minor, 0);
  return { lines, subtotal_minor: subtotal, total_minor: subtotal };
}
