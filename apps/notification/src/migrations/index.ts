import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateNotifications1765200000000 } from './1765200000000-CreateNotifications.js';
import { NoticeSettings1766300002000 } from './1766300002000-NoticeSettings.js';
import { NotificationHotPath1766500000000 } from './1766500000000-NotificationHotPath.js';
import { CountDeliveryRequeues1766600000000 } from './1766600000000-CountDeliveryRequeues.js';
import { usageOutboxFailuresMigration, usageOutboxMigration } from '@platform/service';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateNotifications1765200000000,
  usageOutboxMigration('notification'),
  NoticeSettings1766300002000,
  NotificationHotPath1766500000000,
  CountDeliveryRequeues1766600000000,
  usageOutboxFailuresMigration('notification'),
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
