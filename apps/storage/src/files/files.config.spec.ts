import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig } from '@platform/common';
import { FilesConfig } from './files.config.js';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(FilesConfig, env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('FilesConfig', () => {
  it('defaults to the local backend and a 100 MiB limit', () => {
    expect(loadConfig(FilesConfig, {})).toMatchObject({
      STORAGE_BACKEND: 'local',
      STORAGE_LOCAL_DIR: '.data/files',
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
      UPLOAD_LIMIT_BYTES: 104_857_600,
    });
  });

  it('requires bucket and credentials with s3, and says so by name', () => {
    const found = problems({ STORAGE_BACKEND: 's3' });
    expect(found.map((p) => p.split(':')[0]).sort()).toEqual(['S3_ACCESS_KEY_ID', 'S3_BUCKET', 'S3_SECRET_ACCESS_KEY']);
    const config = loadConfig(FilesConfig, {
      STORAGE_BACKEND: 's3',
      S3_BUCKET: 'platform-files',
      S3_ACCESS_KEY_ID: 'a',
      S3_SECRET_ACCESS_KEY: 'b',
      S3_ENDPOINT: 'http://minio:9000',
      S3_FORCE_PATH_STYLE: 'false',
    });
    expect(config).toMatchObject({ S3_BUCKET: 'platform-files', S3_FORCE_PATH_STYLE: false });
  });

  it('refuses unknown backends, bad endpoints and limits', () => {
    expect(problems({ STORAGE_BACKEND: 'ftp' })[0]).toMatch(/^STORAGE_BACKEND/);
    expect(problems({ S3_ENDPOINT: 'minio:9000' })[0]).toMatch(/^S3_ENDPOINT/);
    expect(problems({ UPLOAD_LIMIT_BYTES: 'lots' })[0]).toMatch(/^UPLOAD_LIMIT_BYTES/);
    expect(problems({ S3_FORCE_PATH_STYLE: 'maybe' })[0]).toMatch(/^S3_FORCE_PATH_STYLE/);
  });
});
