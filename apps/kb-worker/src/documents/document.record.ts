export type DocumentStatus = 'queued' | 'indexing' | 'ready' | 'failed';

export type DocumentSource = { type: 'upload' } | { type: 'file'; file_id: string } | { type: 'url'; url: string };

export interface DocumentRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  knowledge_base_id: string;
  name: string;
  content_type: string | null;
  source: DocumentSource;
  metadata: Record<string, unknown>;
  status: DocumentStatus;
  error: string | null;
  generation: number;
  chunk_count: number;
  size_bytes: number | null;
  created_at: Date;
  updated_at: Date;
  indexed_at: Date | null;
}

export interface DocumentResponse {
  id: string;
  knowledge_base_id: string;
  name: string;
  content_type: string | null;
  source: DocumentSource;
  metadata: Record<string, unknown>;
  status: DocumentStatus;
  error: string | null;
  chunk_count: number;
  size_bytes: number | null;
  customer_id: string | null;
  created_at: string;
  updated_at: string;
  indexed_at: string | null;
}

export function toDocumentResponse(row: DocumentRow): DocumentResponse {
  return {
    id: row.id,
    knowledge_base_id: row.knowledge_base_id,
    name: row.name,
    content_type: row.content_type,
    source: row.source,
    metadata: row.metadata,
    status: row.status,
    error: row.error,
    chunk_count: row.chunk_count,
    size_bytes: row.size_bytes,
    customer_id: row.scope_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    indexed_at: row.indexed_at?.toISOString() ?? null,
  };
}
