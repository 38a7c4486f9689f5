import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateTriggers1765000000000 } from './1765000000000-CreateTriggers.js';
import { WebhookTriggers1765100000000 } from './1765100000000-WebhookTriggers.js';
import { ListenerLookup1766400001000 } from './1766400001000-ListenerLookup.js';
import { ListenersPerTenant1766700000000 } from './1766700000000-ListenersPerTenant.js';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateTriggers1765000000000,
  WebhookTriggers1765100000000,
  ListenerLookup1766400001000,
  ListenersPerTenant1766700000000,
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
