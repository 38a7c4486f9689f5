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

export interface FileUploadedEvent {
  fileId: string;
  name: string;
  size: number;
  contentType: string;
}

export interface ResolveSecretsRequest {
  names: string[];
  /** Who reads, for the audit log: e.g. `run:execution:<id>`. */
  purpose: string;
}

export interface ResolveSecretsResponse {
  values: Record<string, string>;
  missing: string[];
}

export interface DataQueryRequest {
  query: string;
  params?: unknown[];
}

export interface DataQueryResponse {
  columns: { name: string; type: string }[];
  rows: Record<string, unknown>[];
  row_count: number;
  truncated: boolean;
}

export interface DataInsertRequest {
  table: string;
  rows: Record<string, unknown>[];
}

export interface DataUpdateRequest {
  table: string;
  id: string;
  values: Record<string, unknown>;
}

export interface DataDeleteRequest {
  table: string;
  id: string;
}

export interface DataRowsResponse {
  rows: Record<string, unknown>[];
}

export interface FileReadRequest {
  fileId: string;
  /** Refused above this size (default 10 MiB): workflow data is not the place for large files. */
  maxBytes?: number;
}

export interface FileReadResponse {
  fileId: string;
  name: string;
  contentType: string;
  size: number;
  contentBase64: string;
}

export interface FileWriteRequest {
  name: string;
  contentType?: string;
  contentBase64: string;
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
