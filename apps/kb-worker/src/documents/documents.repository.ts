import type { EntityManager } from 'typeorm';
import type { DocumentRow, DocumentSource, DocumentStatus } from './document.record.js';

const COLUMNS = `tenant_id, environment_id, scope_id, id, knowledge_base_id, name, content_type, source, metadata, status, error, generation, chunk_count, size_bytes, created_at, updated_at, indexed_at`;

export interface NewDocument {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  knowledgeBaseId: string;
  name: string;
  contentType: string | null;
  source: DocumentSource;
  content: Buffer | null;
  metadata: Record<string, unknown>;
}

/** Every query on kb.documents; managers come from TenantDb (RLS) unless named. */
/** A document owed indexing that made no progress, as the reconciler sees it. */
export type StaleDocument = Pick<DocumentRow, 'tenant_id' | 'environment_id' | 'scope_id' | 'id' | 'generation'> & { requeues: number };

export const documentsRepository = {
  async insert(m: EntityManager, d: NewDocument): Promise<DocumentRow> {
    const rows = await m.query<DocumentRow[]>(
      `insert into kb.documents (tenant_id, environment_id, scope_id, id, knowledge_base_id, name, content_type, source, content, metadata, status, size_bytes)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'queued', $11) returning ${COLUMNS}`,
      [
        d.tenantId,
        d.environmentId,
        d.scopeId,
        d.id,
        d.knowledgeBaseId,
        d.name,
        d.contentType,
        JSON.stringify(d.source),
        d.content,
        JSON.stringify(d.metadata),
        d.content?.length ?? null,
      ],
    );
    return rows[0];
  },

  async list(m: EntityManager, kbId: string, f: { status?: DocumentStatus; afterId: string | null; limit: number }): Promise<DocumentRow[]> {
    return m.query<DocumentRow[]>(
      `select ${COLUMNS} from kb.documents where knowledge_base_id = $1 and ($2::uuid is null or id > $2) and ($3::text is null or status = $3) order by id limit $4`,
      [kbId, f.afterId, f.status ?? null, f.limit + 1],
    );
  },

  async get(m: EntityManager, kbId: string, id: string): Promise<DocumentRow | undefined> {
    const rows = await m.query<DocumentRow[]>(`select ${COLUMNS} from kb.documents where knowledge_base_id = $1 and id = $2`, [kbId, id]);
    return rows[0];
  },

  async delete(m: EntityManager, kbId: string, id: string): Promise<boolean> {
    const [, count] = await m.query<[unknown[], number]>(`delete from kb.documents where knowledge_base_id = $1 and id = $2`, [kbId, id]);
    return count > 0;
  },

  /** Starts a new generation: the old chunks go, the document is queued again. */
  async requeue(m: EntityManager, kbId: string, id: string): Promise<DocumentRow | undefined> {
    const [rows] = await m.query<[DocumentRow[], number]>(
      `update kb.documents set generation = generation + 1, status = 'queued', error = null, chunk_count = 0, lease_until = null, requeues = 0, updated_at = now()
        where knowledge_base_id = $1 and id = $2 returning ${COLUMNS}`,
      [kbId, id],
    );
    if (rows[0]) await m.query(`delete from kb.chunks where document_id = $1 and generation < $2`, [id, rows[0].generation]);
    return rows[0];
  },

  /**
   * Takes the document for indexing under a lease: only a queued one, or one whose indexer's lease
   * ran out (it died). A stale item (older generation) or one for a finished document gets nothing.
   */
  async claim(m: EntityManager, id: string, generation: number, leaseMs: number): Promise<(DocumentRow & { content: Buffer | null }) | undefined> {
    const [rows] = await m.query<[(DocumentRow & { content: Buffer | null })[], number]>(
      `update kb.documents set status = 'indexing', lease_until = now() + make_interval(secs => $3::float8 / 1000), updated_at = now()
        where id = $1 and generation = $2 and (status = 'queued' or (status = 'indexing' and lease_until < now()))
        returning ${COLUMNS}, content`,
      [id, generation, leaseMs],
    );
    return rows[0];
  },

  async extendLease(m: EntityManager, id: string, generation: number, leaseMs: number): Promise<void> {
    await m.query(
      `update kb.documents set lease_until = now() + make_interval(secs => $3::float8 / 1000) where id = $1 and generation = $2 and status = 'indexing'`,
      [id, generation, leaseMs],
    );
  },

  /** Keeps fetched bytes (a file or URL), so a resumed indexing reads exactly what the first attempt read. */
  async storeContent(m: EntityManager, id: string, content: Buffer, contentType: string): Promise<void> {
    await m.query(`update kb.documents set content = $2, size_bytes = $3, content_type = $4 where id = $1`, [id, content, content.length, contentType]);
  },

  async finish(
    m: EntityManager,
    id: string,
    generation: number,
    outcome: { status: 'ready' | 'failed'; error: string | null; chunkCount: number },
  ): Promise<void> {
    const [finished] = await m.query<[{ id: string }[], number]>(
      `update kb.documents set status = $3, error = $4, chunk_count = $5, lease_until = null, updated_at = now(), indexed_at = case when $3 = 'ready' then now() else indexed_at end
        where id = $1 and generation = $2 returning id`,
      [id, generation, outcome.status, outcome.error, outcome.chunkCount],
    );
    // A generation re-indexed meanwhile is not current: its chunks never go live.
    if (outcome.status === 'ready' && finished.length)
      await m.query(`update kb.chunks set live = true where document_id = $1 and generation = $2`, [id, generation]);
  },

  /** SystemDb: documents owed indexing with no progress for `staleMs` (lost wake-ups, expired leases). */
  async stale(m: EntityManager, staleMs: number, limit: number): Promise<StaleDocument[]> {
    return m.query(
      `select tenant_id, environment_id, scope_id, id, generation, requeues from kb.documents
        where status in ('queued', 'indexing') and updated_at < now() - make_interval(secs => $1::float8 / 1000)
          and (status = 'queued' or lease_until < now())
        order by updated_at limit $2`,
      [staleMs, limit],
    );
  },

  /** SystemDb: marks re-queued rows (counted) so the next pass waits another period. */
  async touch(m: EntityManager, rows: { tenant_id: string; id: string }[]): Promise<void> {
    if (!rows.length) return;
    await m.query(
      `update kb.documents d set updated_at = now(), requeues = d.requeues + 1
        from unnest($1::uuid[], $2::uuid[]) as t(tenant_id, id) where d.tenant_id = t.tenant_id and d.id = t.id`,
      [rows.map((r) => r.tenant_id), rows.map((r) => r.id)],
    );
  },

  /** SystemDb: fails documents the reconciler gave up on (still owed indexing, their generation unchanged). */
  async giveUp(m: EntityManager, rows: StaleDocument[], error: string): Promise<void> {
    if (!rows.length) return;
    await m.query(
      `update kb.documents d set status = 'failed', error = $4, lease_until = null, updated_at = now()
        from unnest($1::uuid[], $2::uuid[], $3::int[]) as t(tenant_id, id, generation)
        where d.tenant_id = t.tenant_id and d.id = t.id and d.generation = t.generation and d.status in ('queued', 'indexing')`,
      [rows.map((r) => r.tenant_id), rows.map((r) => r.id), rows.map((r) => r.generation), error],
    );
  },
};
