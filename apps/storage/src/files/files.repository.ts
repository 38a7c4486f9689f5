import { SqlFilter } from '@platform/db';
import type { EntityManager } from 'typeorm';
import { FILE_COLUMNS, type FileResponse, type FileRow, type NewFile } from './file.record.js';

export interface FileListFilter {
  namePrefix?: string;
  contentType?: string;
  createdAfter?: string;
  createdBefore?: string;
  beforeId?: string;
  limit: number;
}

/** An Idempotency-Key's first answer, kept 24 hours. */
export interface UploadKeyRow {
  fingerprint: string;
  file_id: string;
  response: FileResponse;
}

const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every query on storage.files and storage.file_upload_keys; callers pass a manager from TenantDb (RLS). */
export const filesRepository = {
  async insert(m: EntityManager, file: NewFile): Promise<FileRow> {
    const rows = await m.query<FileRow[]>(
      `insert into storage.files (tenant_id, environment_id, scope_id, id, name, size, content_type, declared_content_type, checksum_sha256, storage_key, metadata, created_by)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) returning ${FILE_COLUMNS}`,
      [
        file.tenantId,
        file.environmentId,
        file.scopeId,
        file.id,
        file.name,
        file.size,
        file.contentType,
        file.declaredContentType,
        file.checksumSha256,
        file.storageKey,
        file.metadata,
        file.createdBy,
      ],
    );
    return rows[0];
  },

  async get(m: EntityManager, id: string): Promise<FileRow | undefined> {
    return (await m.query<FileRow[]>(`select ${FILE_COLUMNS} from storage.files where id = $1`, [id]))[0];
  },

  /** Newest first (ids are UUIDv7); the cursor is the last id returned. */
  async list(m: EntityManager, filter: FileListFilter): Promise<FileRow[]> {
    const f = new SqlFilter();
    if (filter.namePrefix) f.add('name like ?', likePrefix(filter.namePrefix));
    if (filter.contentType) f.add('content_type = ?', filter.contentType);
    if (filter.createdAfter) f.add('created_at > ?', filter.createdAfter);
    if (filter.createdBefore) f.add('created_at < ?', filter.createdBefore);
    if (filter.beforeId) f.add('id < ?', filter.beforeId);
    const limit = f.param(filter.limit + 1);
    return await m.query<FileRow[]>(`select ${FILE_COLUMNS} from storage.files ${f.where} order by id desc limit ${limit}`, f.params);
  },

  async delete(m: EntityManager, id: string): Promise<{ storage_key: string; size: string } | undefined> {
    const [rows] = await m.query<[{ storage_key: string; size: string }[], number]>(`delete from storage.files where id = $1 returning storage_key, size`, [
      id,
    ]);
    return rows[0];
  },

  async findUploadKey(m: EntityManager, key: string, scopeId: string | null): Promise<UploadKeyRow | undefined> {
    const rows = await m.query<UploadKeyRow[]>(
      `select fingerprint, file_id, response from storage.file_upload_keys
        where idempotency_key = $1 and scope_id is not distinct from $2 and created_at > now() - interval '24 hours'`,
      [key, scopeId],
    );
    return rows[0];
  },

  /** Records the key's first answer. Raises 23505 if another upload with the key won the race. */
  async insertUploadKey(
    m: EntityManager,
    key: {
      tenantId: string;
      environmentId: string;
      scopeId: string | null;
      id: string;
      idempotencyKey: string;
      fingerprint: string;
      fileId: string;
      response: FileResponse;
    },
  ): Promise<void> {
    // Expired keys of this tenant go with each new one (bounded, on the created_at index): no sweeper needed.
    await m.query(
      `delete from storage.file_upload_keys where idempotency_key = $1 and scope_id is not distinct from $2 and created_at <= now() - interval '24 hours'`,
      [key.idempotencyKey, key.scopeId],
    );
    await m.query(
      `delete from storage.file_upload_keys where id in (
         select id from storage.file_upload_keys where created_at <= now() - interval '24 hours' order by created_at limit 100)`,
    );
    await m.query(
      `insert into storage.file_upload_keys (tenant_id, environment_id, scope_id, id, idempotency_key, fingerprint, file_id, response)
       values ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [key.tenantId, key.environmentId, key.scopeId, key.id, key.idempotencyKey, key.fingerprint, key.fileId, key.response],
    );
  },
};
