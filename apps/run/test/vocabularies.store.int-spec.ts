import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  EXECUTION_STATUSES,
  NOTIFICATION_STATUSES,
  TASK_DECISIONS,
  TASK_STATUSES,
  TRIGGER_FIRING_STATUSES,
  WEBHOOK_DELIVERY_OUTCOMES,
} from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The services' tables hold the shared vocabularies of libs/messaging to the same lists: each
 * column's check constraint, read back from pg_catalog after the real migrations, allows exactly
 * the values the contracts declare (as sets: the order is not the database's business). One
 * database for every service: creating and dropping one per service cost the suite ~40 s each.
 */
describe('shared vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['run', 'task', 'webhook', 'trigger', 'notification'], 'vocab');
  }, 60_000);

  afterAll(async () => {
    await store?.close();
  });

  it.each([
    { column: 'run.executions.status', values: EXECUTION_STATUSES },
    { column: 'task.tasks.status', values: TASK_STATUSES },
    { column: 'task.tasks.decision', values: TASK_DECISIONS },
    { column: 'webhook.deliveries.outcome', values: WEBHOOK_DELIVERY_OUTCOMES },
    { column: 'trigger.executions.status', values: TRIGGER_FIRING_STATUSES },
    { column: 'notification.notifications.status', values: NOTIFICATION_STATUSES },
  ])('$column allows exactly the contract’s values', async ({ column, values }) => {
    const table = column.slice(0, column.lastIndexOf('.'));
    const allowed = await allowedValues(store.admin, table, column.slice(column.lastIndexOf('.') + 1));
    expect(allowed && new Set(allowed)).toEqual(new Set(values));
  });
});
