import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls } from '@platform/db';

/**
 * Knowledge bases, their documents and the documents' chunks. A chunk's vector is always stored as
 * float32 bytes (`embedding`), which the exact search reads; when the server has pgvector, the
 * extension is created and a `vector(384)` copy with an HNSW index is added (`embedding_vec`), used
 * for knowledge bases whose model gives 384 dimensions. Full-text search uses a generated tsvector.
 * Chunks are unique per document, generation and ordinal: an indexer that resumes after a crash
 * cannot store a chunk twice. Chunks become `live` (searchable) with their document, in the same
 * transaction that marks it ready, so searches need no join. Customers read tenant-wide knowledge bases and own theirs ('shared').
 */
export class CreateKnowledgeBases1766100000000 implements MigrationInterface {
  name = 'CreateKnowledgeBases1766100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`create table kb.knowledge_bases (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      name text not null,
      description text,
      embedding_model text not null,
      answer_model text not null,
      chunk_size integer not null,
      chunk_overlap integer not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (tenant_id, id))`);
    await q.query(`create index knowledge_bases_list on kb.knowledge_bases (tenant_id, environment_id, id)`);
    await applyTenantRls(q, 'kb.knowledge_bases', { scope: 'shared' });

    await q.query(`create table kb.documents (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      knowledge_base_id uuid not null,
      name text not null,
      content_type text,
      source jsonb not null,
      content bytea,
      metadata jsonb not null default '{}',
      status text not null check (status in ('queued', 'indexing', 'ready', 'failed')),
      error text,
      generation integer not null default 0,
      chunk_count integer not null default 0,
      size_bytes integer,
      lease_until timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      indexed_at timestamptz,
      primary key (tenant_id, id),
      foreign key (tenant_id, knowledge_base_id) references kb.knowledge_bases (tenant_id, id) on delete cascade)`);
    await q.query(`create index documents_list on kb.documents (tenant_id, knowledge_base_id, id)`);
    // The reconciler's scan (system path): documents still owed indexing.
    await q.query(`create index documents_pending on kb.documents (updated_at) where status in ('queued', 'indexing')`);
    await applyTenantRls(q, 'kb.documents', { scope: 'shared' });

    await q.query(`create table kb.chunks (
      tenant_id uuid not null,
      environment_id uuid not null,
      scope_id uuid,
      id uuid not null,
      knowledge_base_id uuid not null,
      document_id uuid not null,
      generation integer not null,
      ordinal integer not null,
      heading text,
      text text not null,
      start_pos integer not null,
      end_pos integer not null,
      embedding bytea not null,
      live boolean not null default false,
      tsv tsvector generated always as (to_tsvector('english', coalesce(heading, '') || ' ' || text)) stored,
      primary key (tenant_id, id),
      unique (tenant_id, document_id, generation, ordinal),
      foreign key (tenant_id, document_id) references kb.documents (tenant_id, id) on delete cascade)`);
    await q.query(`create index chunks_by_kb on kb.chunks (tenant_id, knowledge_base_id)`);
    // GIN cannot lead with tenant_id without btree_gin; RLS still confines every scan to the tenant.
    await q.query(`create index chunks_fulltext on kb.chunks using gin (tsv)`);
    await applyTenantRls(q, 'kb.chunks', { scope: 'shared' });

    await q.query(`do $$ begin
      if exists (select 1 from pg_available_extensions where name = 'vector') then
        begin
          create extension if not exists vector with schema public;
        exception when insufficient_privilege then
          raise notice 'pgvector is installed on the server but this role may not create it: the exact vector search is used';
        end;
      end if;
      if exists (select 1 from pg_extension where extname = 'vector') then
        execute 'alter table kb.chunks add column embedding_vec public.vector(384)';
        execute 'create index chunks_hnsw on kb.chunks using hnsw (embedding_vec public.vector_cosine_ops)';
      end if;
    end $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop table kb.chunks, kb.documents, kb.knowledge_bases`);
  }
}
