import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateAiRuntime1766100000000 } from './1766100000000-CreateAiRuntime.js';
import { AgentApprovals1766200000000 } from './1766200000000-AgentApprovals.js';
import { usageOutboxFailuresMigration, usageOutboxMigration } from '@platform/service';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateAiRuntime1766100000000,
  AgentApprovals1766200000000,
  usageOutboxMigration('ai'),
  usageOutboxFailuresMigration('ai'),
];
