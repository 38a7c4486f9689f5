import type { PlanRow } from '../plans/plan.record.js';

/** Tenant-wide rows (subscription, plan changes, invoices) are read in a context whose environment RLS ignores. */
export const TENANT_WIDE_ENVIRONMENT = '00000000-0000-0000-0000-000000000000';

export const tenantWide = (tenantId: string) => ({ tenantId, environmentId: TENANT_WIDE_ENVIRONMENT, scopeId: null });

export interface SubscriptionRow {
  tenant_id: string;
  id: string;
  plan_code: string;
  status: 'active' | 'cancelled';
  period_start: Date;
  period_end: Date;
  created_at: Date;
  updated_at: Date;
}

/** A subscription with its plan, as most reads need both. */
export interface SubscriptionWithPlan extends SubscriptionRow {
  plan: PlanRow;
}

export interface SubscriptionResponse {
  id: string;
  plan: string;
  plan_name: string;
  status: 'active' | 'cancelled';
  currency: string;
  period_start: string;
  period_end: string;
  created_at: string;
  updated_at: string;
}

export function toSubscriptionResponse(row: SubscriptionWithPlan): SubscriptionResponse {
  return {
    id: row.id,
    plan: row.plan_code,
    plan_name: row.plan.name,
    status: row.status,
    currency: row.plan.currency,
    period_start: row.period_start.toISOString(),
    period_end: row.period_end.toISOString(),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export interface PlanChangeRow {
  id: string;
  from_plan: string | null;
  to_plan: string;
  actor: string | null;
  changed_at: Date;
}

export interface PlanChangeResponse {
  id: string;
  from_plan: string | null;
  to_plan: string;
  actor: string | null;
  changed_at: string;
}

export const toPlanChangeResponse = (row: PlanChangeRow): PlanChangeResponse => ({
  id: row.id,
  from_plan: row.from_plan,
  to_plan: row.to_plan,
  actor: row.actor,
  changed_at: row.changed_at.toISOString(),
});
