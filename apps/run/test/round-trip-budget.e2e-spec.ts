import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { createWorkflow, env, gw, waitFor } from './engine-helpers.js';
import { BUDGET_FILE, judge, perRun, readBudget, settledCounts, table } from './round-trip-budget.js';

/** Runs measured per workflow, one after the other: each run's counts stay its own. */
const RUNS = 15;

// The engine benchmark's workflows (bench/suites/engine.js).
const WORKFLOWS = {
  'one-step': [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }],
  'five-step': Array.from({ length: 5 }, (_, i) => ({
    id: `s${i}`,
    type: 'transform',
    input: { value: i === 0 ? '{% input.x %}' : `{% steps.s${i - 1}.output.value + 1 %}` },
  })),
};
type Workflow = keyof typeof WORKFLOWS;

/**
 * Regressions without timing noise: what one run costs in database round trips and NATS and
 * JetStream messages, in every process it reaches, against a committed budget. Each process
 * counts per request id (PLATFORM_IO_COUNTERS, on for the e2e platform), so background work
 * and other tests' requests do not count; the median over the runs is what a typical run costs,
 * so an occasional key verification or cache refresh does not either.
 */
describe('the round trips of a run, against their budget', () => {
  let tenant: TestTenant;
  const ids = {} as Record<Workflow, string>;
  const nonce = randomBytes(4).toString('hex');

  beforeAll(async () => {
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'budget');
    for (const workflow of Object.keys(WORKFLOWS) as Workflow[]) ids[workflow] = await createWorkflow(tenant, WORKFLOWS[workflow]);
  });

  async function run(workflow: Workflow, requestId?: string): Promise<void> {
    const res = await gw('/v1/automations/run', {
      headers: { ...withKey(tenant.test_key), ...(requestId ? { 'x-request-id': requestId } : {}) },
      body: { automation_id: ids[workflow], input: { x: 21 } },
    });
    expect(res.status).toBe(202);
    expect((await waitFor(tenant, res.body.run_id as string, ['succeeded', 'failed'])).status).toBe('succeeded');
  }

  it('stays within the budget for a one-step and a five-step run', async () => {
    // Unmeasured first runs fill what every later run finds ready (key verification, plan limits, definitions).
    for (const workflow of Object.keys(WORKFLOWS) as Workflow[]) for (let i = 0; i < 2; i++) await run(workflow);
    const requestIds = {} as Record<Workflow, string[]>;
    for (const workflow of Object.keys(WORKFLOWS) as Workflow[]) {
      requestIds[workflow] = Array.from({ length: RUNS }, (_, i) => `budget-${nonce}-${workflow}-${i}`);
      for (const requestId of requestIds[workflow]) await run(workflow, requestId);
    }
    const counts = await settledCounts(`budget-${nonce}-`);

    const budget = readBudget();
    const over: string[] = [];
    const under: string[] = [];
    const tables: string[] = [];
    for (const workflow of Object.keys(WORKFLOWS) as Workflow[]) {
      const measured = perRun(counts, requestIds[workflow]);
      tables.push(table(workflow, RUNS, measured));
      const verdict = judge(workflow, measured, budget[workflow] ?? {});
      over.push(...verdict.over);
      under.push(...verdict.under);
    }
    process.stdout.write(`\n${tables.join('\n\n')}\n`);
    if (under.length) process.stdout.write(`\nBelow budget: lower these in ${BUDGET_FILE}:\n  ${under.join('\n  ')}\n`);
    // Past the budget: find the new round trips, or raise the budget in the file, deliberately.
    expect(over).toEqual([]);
  }, 180_000);
});
