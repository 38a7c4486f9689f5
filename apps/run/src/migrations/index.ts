import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateEngine1764100000000 } from './1764100000000-CreateEngine.js';
import { CreateQueryViews1764200000000 } from './1764200000000-CreateQueryViews.js';
import { EngineHotPath1764300000000 } from './1764300000000-EngineHotPath.js';
import { ExecutionRequestId1764400000000 } from './1764400000000-ExecutionRequestId.js';
import { IdempotencyPerScope1764500000000 } from './1764500000000-IdempotencyPerScope.js';
import { ResolveTaskStep1766000002000 } from './1766000002000-ResolveTaskStep.js';
import { ExecutionReports1766100001000 } from './1766100001000-ExecutionReports.js';
import { MeteredStart1766300001000 } from './1766300001000-MeteredStart.js';
import { OneTripResume1766400000000 } from './1766400000000-OneTripResume.js';
import { VersionedWorkflowMeta1766500000000 } from './1766500000000-VersionedWorkflowMeta.js';
import { usageOutboxFailuresMigration, usageOutboxMigration } from '@platform/service';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateEngine1764100000000,
  CreateQueryViews1764200000000,
  EngineHotPath1764300000000,
  ExecutionRequestId1764400000000,
  IdempotencyPerScope1764500000000,
  ResolveTaskStep1766000002000,
  ExecutionReports1766100001000,
  usageOutboxMigration('run'),
  MeteredStart1766300001000,
  OneTripResume1766400000000,
  VersionedWorkflowMeta1766500000000,
  usageOutboxFailuresMigration('run'),
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
