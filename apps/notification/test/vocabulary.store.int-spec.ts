import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NOTIFICATION_STATUSES } from '@platform/messaging';
import { allowedValues, storeHarness, type StoreHarness } from '@platform/testing';

/**
 * The notification service's tables hold the shared vocabularies of libs/messaging to the same lists:
 * each column's check constraint, read back from pg_catalog after the real migrations, allows
 * exactly the values the contracts declare (as sets: the order is not the database's business).
 */
describe('notification vocabularies in the database', () => {
  let store: StoreHarness;

  beforeAll(async () => {
    store = await storeHarness(['notification'], 'notification_vocab');
  });

  afterAll(async () => {
    await store.close();
  });

  it('notification.notifications.status allows exactly NOTIFICATION_STATUSES', async () => {
    const allowed = await allowedValues(store.admin, 'notification.notifications', 'status');
    expect(allowed && new Set(allowed)).toEqual(new Set(NOTIFICATION_STATUSES));
  });
});
