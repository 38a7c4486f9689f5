import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WEBHOOK_DELIVERY_OUTCOMES } from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The webhook service's tables hold the shared vocabularies of libs/messaging to the same lists:
 * each column's check constraint, read back from pg_catalog after the real migrations, allows
 * exactly the values the contracts declare (as sets: the order is not the database's business).
 */
describe('webhook vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['webhook'], 'webhook_vocab');
  });

  afterAll(async () => {
    await store.close();
  });

  it('webhook.deliveries.outcome allows exactly WEBHOOK_DELIVERY_OUTCOMES', async () => {
    const allowed = await allowedValues(store.admin, 'webhook.deliveries', 'outcome');
    expect(allowed && new Set(allowed)).toEqual(new Set(WEBHOOK_DELIVERY_OUTCOMES));
  });
});
