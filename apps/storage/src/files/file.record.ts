/** A row of storage.files as the repository reads it. */
export interface FileRow {
  id: string;
  scope_id: string | null;
  name: string;
  /** bigint: node-postgres returns it as a string. */
  size: string | number;
  content_type: string;
  declared_content_type: string | null;
  checksum_sha256: string;
  storage_key: string;
  metadata: Record<string, unknown>;
  created_at: Date;
}

export const FILE_COLUMNS = 'id, scope_id, name, size, content_type, declared_content_type, checksum_sha256, storage_key, metadata, created_at';

export interface NewFile {
  tenantId: string;
  environmentId: string;
  scopeId: string | null;
  id: string;
  name: string;
  size: number;
  contentType: string;
  declaredContentType: string | null;
  checksumSha256: string;
  storageKey: string;
  metadata: Record<string, unknown>;
  createdBy: string | null;
}

/** What clients see; the storage key stays inside the service. */
export interface FileResponse {
  id: string;
  name: string;
  size: number;
  content_type: string;
  declared_content_type: string | null;
  checksum_sha256: string;
  metadata: Record<string, unknown>;
  /** The customer (execution scope) that owns the file; null for tenant-wide files. */
  customer_id: string | null;
  created_at: string;
}

export function toFileResponse(row: FileRow): FileResponse {
  return {
    id: row.id,
    name: row.name,
    size: Number(row.size),
    content_type: row.content_type,
    declared_content_type: row.declared_content_type,
    checksum_sha256: row.checksum_sha256,
    metadata: row.metadata,
    customer_id: row.scope_id,
    created_at: row.created_at.toISOString(),
  };
}

export const FILE_EXAMPLE: FileResponse = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
  name: 'invoice-2026-11.pdf',
  size: 48213,
  content_type: 'application/pdf',
  declared_content_type: 'application/pdf',
  checksum_sha256: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  metadata: { customer: 'crm-4711' },
  customer_id: null,
  created_at: '2026-11-22T10:00:00.000Z',
};
