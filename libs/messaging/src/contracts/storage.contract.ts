import { ArrayMaxSize, ArrayMinSize, IsArray, IsInt, IsObject, IsOptional, IsString, IsUUID, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

/** Subjects the storage service answers or emits. */
export const StorageSubjects = {
  /** Event: a file was uploaded (HTTP or a workflow step). */
  fileUploaded: 'storage.file.uploaded',
  /** Request (run, connection only): secret values for a workflow run or a connection; every read is audited. */
  secretsResolve: 'storage.secrets.resolve',
  /** Requests behind the workflow steps `data.query`, `data.insert`, `data.update`, `data.delete`. */
  dataQuery: 'storage.data.query',
  dataInsert: 'storage.data.insert',
  dataUpdate: 'storage.data.update',
  dataDelete: 'storage.data.delete',
  /** Requests behind the workflow steps `file.read` and `file.write` (small files, base64). */
  filesRead: 'storage.files.read',
  filesWrite: 'storage.files.write',
} as const;

/** Limits of the storage messages, shared with the storage service's HTTP DTOs. */
export const STORAGE_LIMITS = {
  /** Table names: lower-case identifiers PostgreSQL accepts unquoted. */
  tableName: /^[a-z_][a-z0-9_]{0,62}$/,
  secretName: /^[A-Za-z0-9_.-]{1,128}$/,
  maxQueryLength: 100_000,
  maxQueryParams: 1000,
  maxBulkRows: 10_000,
  /** A file.read through a message is refused above this size unless the caller asks for less. */
  defaultMessageReadBytes: 10 * 1024 * 1024,
} as const;

const TABLE_NAME_MESSAGE = { message: 'must match [a-z_][a-z0-9_]{0,62}' };

export class FileUploadedEvent {
  @IsUUID()
  fileId!: string;

  @IsString()
  @MaxLength(1024)
  name!: string;

  @IsInt()
  @Min(0)
  size!: number;

  @IsString()
  @MaxLength(255)
  contentType!: string;
}

/** `storage.secrets.resolve`: for the run and connection services only. */
export class ResolveSecretsRequest {
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @Matches(STORAGE_LIMITS.secretName, { each: true, message: 'each name must be 1 to 128 characters of A-Z, a-z, 0-9, _, . and -' })
  names!: string[];

  /** Who reads, for the audit log: e.g. `run:execution:<id>`; must name one of the two callers. */
  @IsString()
  @Matches(/^(run|connection):[\x21-\x7e]{1,200}$/, { message: "must be 'run:<…>' or 'connection:<…>' (who reads, e.g. run:execution:<id>)" })
  purpose!: string;
}

export interface ResolveSecretsResponse {
  values: Record<string, string>;
  missing: string[];
}

export class DataQueryRequest {
  @IsString()
  @MinLength(1)
  @MaxLength(STORAGE_LIMITS.maxQueryLength)
  query!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(STORAGE_LIMITS.maxQueryParams)
  params?: unknown[];
}

export interface DataQueryResponse {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}

export class DataInsertRequest {
  @IsString()
  @Matches(STORAGE_LIMITS.tableName, TABLE_NAME_MESSAGE)
  table!: string;

  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(STORAGE_LIMITS.maxBulkRows)
  rows!: Record<string, unknown>[];
}

export class DataUpdateRequest {
  @IsString()
  @Matches(STORAGE_LIMITS.tableName, TABLE_NAME_MESSAGE)
  table!: string;

  @IsUUID()
  id!: string;

  @IsObject()
  values!: Record<string, unknown>;
}

export class DataDeleteRequest {
  @IsString()
  @Matches(STORAGE_LIMITS.tableName, TABLE_NAME_MESSAGE)
  table!: string;

  @IsUUID()
  id!: string;
}

export interface DataRowsResponse {
  rows: Record<string, unknown>[];
}

/** `storage.files.read` (workflow step `file.read`). */
export class FileReadRequest {
  @IsUUID()
  fileId!: string;

  /** Refused above this size (default 10 MiB): workflow data is not the place for large files. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100 * 1024 * 1024)
  maxBytes?: number;
}

export interface FileReadResponse {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  contentBase64: string;
}

/** `storage.files.write` (workflow step `file.write`). */
export class FileWriteRequest {
  @IsString()
  @MaxLength(1024)
  name!: string;

  @IsOptional()
  @IsString()
  @Matches(/^[\w.+-]+\/[\w.+-]+$/, { message: 'must be a media type such as text/csv' })
  @MaxLength(255)
  contentType?: string;

  @IsString()
  contentBase64!: string;
}

export interface FileWriteResponse {
  fileId: string;
  name: string;
  size: number;
  contentType: string;
  checksum: string;
}

export interface StorageRequests {
  [StorageSubjects.secretsResolve]: { request: ResolveSecretsRequest; response: ResolveSecretsResponse };
  [StorageSubjects.dataQuery]: { request: DataQueryRequest; response: DataQueryResponse };
  [StorageSubjects.dataInsert]: { request: DataInsertRequest; response: DataRowsResponse };
  [StorageSubjects.dataUpdate]: { request: DataUpdateRequest; response: DataRowsResponse };
  [StorageSubjects.dataDelete]: { request: DataDeleteRequest; response: DataRowsResponse };
  [StorageSubjects.filesRead]: { request: FileReadRequest; response: FileReadResponse };
  [StorageSubjects.filesWrite]: { request: FileWriteRequest; response: FileWriteResponse };
}

export interface StorageEvents {
  [StorageSubjects.fileUploaded]: FileUploadedEvent;
}
