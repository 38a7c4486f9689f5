import type { EntityManager } from 'typeorm';
import type { KnowledgeBaseRow } from './knowledge-base.record.js';
import { knowledgeBasesRepository } from './knowledge-bases.repository.js';

// What documents/, indexing/ and search/ use of knowledge bases, inside their own transaction:
// the repository stays private to this folder (scripts/check-feature-deps.js).

export { changeableKnowledgeBase } from './changeable-knowledge-base.js';
export { KnowledgeBaseErrors } from './knowledge-bases.errors.js';

/** The knowledge base as the caller's transaction sees it (RLS: a customer also reads tenant-wide ones); undefined when unknown. */
export function visibleKnowledgeBase(m: EntityManager, id: string): Promise<KnowledgeBaseRow | undefined> {
  return knowledgeBasesRepository.get(m, id);
}
