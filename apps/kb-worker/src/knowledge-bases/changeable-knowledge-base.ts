import type { TenantContext } from '@platform/db';
import type { EntityManager } from 'typeorm';
import type { KnowledgeBaseRow } from './knowledge-base.record.js';
import { KnowledgeBaseErrors } from './knowledge-bases.errors.js';
import { knowledgeBasesRepository } from './knowledge-bases.repository.js';

/**
 * The knowledge base whose documents the caller may add, re-index or delete. A customer reads and
 * queries tenant-wide knowledge bases (RLS shows them) but changes only its own: a document it
 * could add to a tenant-wide one would be its own row there, yet reach every tenant query and
 * answer. To a customer a tenant-wide knowledge base is 404 for changes, as for an unknown one.
 */
export async function changeableKnowledgeBase(m: EntityManager, ctx: TenantContext, id: string): Promise<KnowledgeBaseRow> {
  const kb = await knowledgeBasesRepository.get(m, id);
  if (!kb || (ctx.scopeId && kb.scope_id !== ctx.scopeId)) throw KnowledgeBaseErrors.notFound();
  return kb;
}
