import { CreateSchema1763800000000 } from './1763800000000-CreateSchema.js';
import { CreateTasks1766000000000 } from './1766000000000-CreateTasks.js';
import { TaskHotPath1766000001000 } from './1766000001000-TaskHotPath.js';
import { AgentApprovalTasks1766200000000 } from './1766200000000-AgentApprovalTasks.js';
import { OutcomeFailures1767000000011 } from './1767000000011-OutcomeFailures.js';
import { join } from 'node:path';
import { databaseFunctions } from '@platform/db';

/** In order of application; db-setup runs them as the schema's owner. */
export const migrations = [
  CreateSchema1763800000000,
  CreateTasks1766000000000,
  TaskHotPath1766000001000,
  AgentApprovalTasks1766200000000,
  OutcomeFailures1767000000011,
];

/** The current text of each of the service's SQL functions (`<feature>/sql/<name>.sql`), applied after the migrations. */
export const functions = databaseFunctions(join(import.meta.dirname, '..'));
