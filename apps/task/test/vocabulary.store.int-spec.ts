import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TASK_DECISIONS, TASK_STATUSES } from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The task service's tables hold the shared vocabularies of libs/messaging to the same lists:
 * each column's check constraint, read back from pg_catalog after the real migrations, allows
 * exactly the values the contracts declare (as sets: the order is not the database's business).
 */
describe('task vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['task'], 'task_vocab');
  });

  afterAll(async () => {
    await store.close();
  });

  it('task.tasks.status allows exactly TASK_STATUSES', async () => {
    const allowed = await allowedValues(store.admin, 'task.tasks', 'status');
    expect(allowed && new Set(allowed)).toEqual(new Set(TASK_STATUSES));
  });

  it('task.tasks.decision allows exactly TASK_DECISIONS', async () => {
    const allowed = await allowedValues(store.admin, 'task.tasks', 'decision');
    expect(allowed && new Set(allowed)).toEqual(new Set(TASK_DECISIONS));
  });
});
