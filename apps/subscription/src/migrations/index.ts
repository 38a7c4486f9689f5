import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateSubscriptions1766100000000 } from './1766100000000-CreateSubscriptions.js';
import { PlanNotificationLimits1766300000000 } from './1766300000000-PlanNotificationLimits.js';
import { BillingFailures1767000000001 } from './1767000000001-BillingFailures.js';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [CreateSchema1763800000000, CreateSubscriptions1766100000000, PlanNotificationLimits1766300000000, BillingFailures1767000000001];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
