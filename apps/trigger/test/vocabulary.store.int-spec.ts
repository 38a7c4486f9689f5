import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { TRIGGER_FIRING_STATUSES } from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The trigger service's tables hold the shared vocabularies of libs/messaging to the same lists:
 * each column's check constraint, read back from pg_catalog after the real migrations, allows
 * exactly the values the contracts declare (as sets: the order is not the database's business).
 */
describe('trigger vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['trigger'], 'trigger_vocab');
  });

  afterAll(async () => {
    await store.close();
  });

  it('trigger.executions.status allows exactly TRIGGER_FIRING_STATUSES', async () => {
    const allowed = await allowedValues(store.admin, 'trigger.executions', 'status');
    expect(allowed && new Set(allowed)).toEqual(new Set(TRIGGER_FIRING_STATUSES));
  });
});
