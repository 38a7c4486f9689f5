import type { FilesConfig } from '../files.config.js';
import type { FileBackend } from './file-backend.js';
import { LocalFileBackend } from './local.backend.js';

export async function createFileBackend(config: FilesConfig): Promise<FileBackend> {
  switch (config.STORAGE_BACKEND) {
    case 'local':
      return new LocalFileBackend(config.STORAGE_LOCAL_DIR);
    case 's3': {
      // Loaded only when configured: the AWS SDK is large and the local backend does not need it.
      const { S3FileBackend, createS3Client } = await import('./s3.backend.js');
      const client = createS3Client({
        endpoint: config.S3_ENDPOINT,
        region: config.S3_REGION,
        bucket: config.S3_BUCKET,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      });
      return new S3FileBackend(client, config.S3_BUCKET);
    }
  }
}
