import type { EntityManager } from 'typeorm';
import { environmentsRepository } from './environments.repository.js';

// What other features of this app may use of environments, inside their own transaction: the
// repository stays private to this folder (scripts/check-feature-deps.js).

/** A data plane's mode, in the caller's tenant (RLS); undefined when the tenant has no such data plane. */
export function dataPlaneMode(m: EntityManager, id: string): Promise<'live' | 'test' | undefined> {
  return environmentsRepository.mode(m, id);
}
