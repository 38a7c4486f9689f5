import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateFiles1764000000000 } from './1764000000000-CreateFiles.js';
import { CreateResources1764000001000 } from './1764000001000-CreateResources.js';
import { CreateSecrets1764000002000 } from './1764000002000-CreateSecrets.js';
import { CreateDataTables1764000003000 } from './1764000003000-CreateDataTables.js';
import { DataKeyRewrapFailures1767000000020 } from './1767000000020-DataKeyRewrapFailures.js';
import { usageOutboxFailuresMigration, usageOutboxMigration } from '@platform/service';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateFiles1764000000000,
  CreateResources1764000001000,
  CreateSecrets1764000002000,
  CreateDataTables1764000003000,
  usageOutboxMigration('storage'),
  usageOutboxFailuresMigration('storage'),
  DataKeyRewrapFailures1767000000020,
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
