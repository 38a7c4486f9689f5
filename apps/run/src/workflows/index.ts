import type { EntityManager } from 'typeorm';
import { workflowsRepository } from './workflows.repository.js';

// What other features of this app may use of workflows inside their own transaction: the
// repository stays private to this folder (scripts/check-feature-deps.js).

/** Whether the caller's transaction sees the workflow (not deleted), e.g. to say why a start was refused. */
export async function workflowExists(m: EntityManager, id: string): Promise<boolean> {
  return (await workflowsRepository.get(m, id)) !== undefined;
}
