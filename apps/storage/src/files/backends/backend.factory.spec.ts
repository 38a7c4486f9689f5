import { describe, expect, it } from '@jest/globals';
import { loadConfig } from '@platform/common';
import { FilesConfig } from '../files.config.js';
import { createFileBackend } from './backend.factory.js';
import { LocalFileBackend } from './local.backend.js';
import { S3FileBackend } from './s3.backend.js';

describe('createFileBackend', () => {
  it('makes the configured backend', async () => {
    expect(await createFileBackend(loadConfig(FilesConfig, { STORAGE_LOCAL_DIR: '/tmp/files-x' }))).toEqual(expect.objectContaining({ root: '/tmp/files-x' }));
    expect(await createFileBackend(loadConfig(FilesConfig, {}))).toBeInstanceOf(LocalFileBackend);
    const s3 = await createFileBackend(
      loadConfig(FilesConfig, {
        STORAGE_BACKEND: 's3',
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'a',
        S3_SECRET_ACCESS_KEY: 'b',
        S3_ENDPOINT: 'http://minio:9000',
      }),
    );
    expect(s3).toBeInstanceOf(S3FileBackend);
  });
});
