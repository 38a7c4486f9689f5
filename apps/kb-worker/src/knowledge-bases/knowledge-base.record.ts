export interface KnowledgeBaseRow {
  tenant_id: string;
  environment_id: string;
  scope_id: string | null;
  id: string;
  name: string;
  description: string | null;
  embedding_model: string;
  answer_model: string;
  chunk_size: number;
  chunk_overlap: number;
  created_at: Date;
  updated_at: Date;
}

export interface KnowledgeBaseResponse {
  id: string;
  name: string;
  description: string | null;
  embedding_model: string;
  answer_model: string;
  chunking: { size: number; overlap: number };
  customer_id: string | null;
  created_at: string;
  updated_at: string;
}

export function toKnowledgeBaseResponse(row: KnowledgeBaseRow): KnowledgeBaseResponse {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    embedding_model: row.embedding_model,
    answer_model: row.answer_model,
    chunking: { size: row.chunk_size, overlap: row.chunk_overlap },
    customer_id: row.scope_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
