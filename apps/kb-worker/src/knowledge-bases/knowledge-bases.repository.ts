import type { EntityManager } from 'typeorm';
import type { KnowledgeBaseRow } from './knowledge-base.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, name, description, embedding_model, answer_model, chunk_size, chunk_overlap, created_at, updated_at`;

export interface NewKnowledgeBase {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  name: string;
  description: string | null;
  embeddingModel: string;
  answerModel: string;
  chunkSize: number;
  chunkOverlap: number;
}

export interface KnowledgeBaseChanges {
  name?: string;
  description?: string | null;
  answerModel?: string;
  chunkSize?: number;
  chunkOverlap?: number;
}

/** Every query on kb.knowledge_bases; managers come from TenantDb (RLS). */
export const knowledgeBasesRepository = {
  async insert(m: EntityManager, kb: NewKnowledgeBase): Promise<KnowledgeBaseRow> {
    const rows = await m.query<KnowledgeBaseRow[]>(
      `insert into kb.knowledge_bases (tenant_id, environment_id, scope_id, id, name, description, embedding_model, answer_model, chunk_size, chunk_overlap)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${COLUMNS}`,
      [kb.tenantId, kb.environmentId, kb.scopeId, kb.id, kb.name, kb.description, kb.embeddingModel, kb.answerModel, kb.chunkSize, kb.chunkOverlap],
    );
    return rows[0];
  },

  async list(m: EntityManager, afterId: string | null, limit: number, name?: string): Promise<KnowledgeBaseRow[]> {
    return m.query<KnowledgeBaseRow[]>(
      `select ${COLUMNS} from kb.knowledge_bases where ($1::uuid is null or id > $1) and ($2::text is null or name = $2) order by id limit $3`,
      [afterId, name ?? null, limit + 1],
    );
  },

  async get(m: EntityManager, id: string, forUpdate = false): Promise<KnowledgeBaseRow | undefined> {
    const rows = await m.query<KnowledgeBaseRow[]>(`select ${COLUMNS} from kb.knowledge_bases where id = $1${forUpdate ? ' for update' : ''}`, [id]);
    return rows[0];
  },

  async update(m: EntityManager, id: string, c: KnowledgeBaseChanges): Promise<KnowledgeBaseRow | undefined> {
    const [rows] = await m.query<[KnowledgeBaseRow[], number]>(
      `update kb.knowledge_bases set name = coalesce($2, name), description = case when $3 then $4 else description end,
         answer_model = coalesce($5, answer_model), chunk_size = coalesce($6, chunk_size), chunk_overlap = coalesce($7, chunk_overlap), updated_at = now()
        where id = $1 returning ${COLUMNS}`,
      [id, c.name ?? null, c.description !== undefined, c.description ?? null, c.answerModel ?? null, c.chunkSize ?? null, c.chunkOverlap ?? null],
    );
    return rows[0];
  },

  async delete(m: EntityManager, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown[], number]>(`delete from kb.knowledge_bases where id = $1`, [id]);
    return count > 0;
  },
};
