import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { EXECUTION_STATUSES } from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The run service's tables hold the shared vocabularies of libs/messaging to the same lists:
 * each column's check constraint, read back from pg_catalog after the real migrations, allows
 * exactly the values the contracts declare (as sets: the order is not the database's business).
 */
describe('run vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['run'], 'run_vocab');
  });

  afterAll(async () => {
    await store.close();
  });

  it('run.executions.status allows exactly EXECUTION_STATUSES', async () => {
    const allowed = await allowedValues(store.admin, 'run.executions', 'status');
    expect(allowed && new Set(allowed)).toEqual(new Set(EXECUTION_STATUSES));
  });
});
