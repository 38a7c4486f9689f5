import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateIdentity1763900000000 } from './1763900000000-CreateIdentity.js';
import { CustomerStatus1766100002000 } from './1766100002000-CustomerStatus.js';
import { KeyExpiryNotices1766300001000 } from './1766300001000-KeyExpiryNotices.js';
import { KeysOutliveTheirCustomer1766600001000 } from './1766600001000-KeysOutliveTheirCustomer.js';
import { ApiKeyHashKey1766700000000 } from './1766700000000-ApiKeyHashKey.js';
import { KeyExpiryNoticeFailures1767000000021 } from './1767000000021-KeyExpiryNoticeFailures.js';
import { usageOutboxFailuresMigration, usageOutboxMigration } from '@platform/service';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateIdentity1763900000000,
  CustomerStatus1766100002000,
  usageOutboxMigration('account'),
  KeyExpiryNotices1766300001000,
  KeysOutliveTheirCustomer1766600001000,
  ApiKeyHashKey1766700000000,
  usageOutboxFailuresMigration('account'),
  KeyExpiryNoticeFailures1767000000021,
];
