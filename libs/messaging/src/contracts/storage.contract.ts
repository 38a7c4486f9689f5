/** Subjects the storage service answers or emits. */
export const StorageSubjects = {
  fileUploaded: 'storage.file.uploaded',
} as const;

export interface FileUploadedEvent {
  fileId: string;
  name: string;
  size: number;
  contentType: string;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface StorageRequests {}

export interface StorageEvents {
  [StorageSubjects.fileUploaded]: FileUploadedEvent;
}
