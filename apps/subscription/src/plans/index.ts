import type { EntityManager } from 'typeorm';
import type { PlanRow } from './plan.record.js';
import { plansRepository } from './plans.repository.js';
import type { PlanDefinition } from './seed-plans.js';

// What subscriptions/ and the operator's command (cli/) use of plans: the repository stays private
// to this folder (scripts/check-feature-deps.js).

/** Every plan, cheapest first. */
export function listPlans(m: EntityManager): Promise<PlanRow[]> {
  return plansRepository.list(m);
}

/** Adds a plan, or replaces one's terms with `replace`; false when it exists and `replace` is not set. */
export function upsertPlan(m: EntityManager, plan: PlanDefinition, replace: boolean): Promise<boolean> {
  return plansRepository.upsert(m, plan, replace);
}
