import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateWebhooks1765000000000 } from './1765000000000-CreateWebhooks.js';
import { WebhookHotPath1765000001000 } from './1765000001000-WebhookHotPath.js';
import { DeferredRunStarts1765000002000 } from './1765000002000-DeferredRunStarts.js';
import { WebhookTriggerLinks1765100000000 } from './1765100000000-WebhookTriggerLinks.js';
import { StartsByKey1766500001000 } from './1766500001000-StartsByKey.js';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateWebhooks1765000000000,
  WebhookHotPath1765000001000,
  DeferredRunStarts1765000002000,
  WebhookTriggerLinks1765100000000,
  StartsByKey1766500001000,
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
