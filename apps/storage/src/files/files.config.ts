import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNotEmpty, IsString, IsUrl, Matches, Min, ValidateIf } from 'class-validator';
import { toBoolean } from '@platform/common';

export const FILES_CONFIG = Symbol('FILES_CONFIG');

const s3 = (c: FilesConfig) => c.STORAGE_BACKEND === 's3';

/**
 * Settings of the files feature, read from the environment once at start-up (names are the
 * variables, initial values the defaults). With `s3`, bucket and credentials are required: the
 * service refuses to start without them rather than failing on the first upload.
 */
export class FilesConfig {
  @IsIn(['local', 's3'])
  STORAGE_BACKEND: 'local' | 's3' = 'local';

  /** `local` backend: objects live under <dir>/<tenant>/<file id>; relative to the working directory. */
  @IsString()
  @IsNotEmpty()
  STORAGE_LOCAL_DIR: string = '.data/files';

  /** Any S3-compatible store (MinIO: http://minio:9000); empty for AWS itself. */
  @ValidateIf((c: FilesConfig) => c.S3_ENDPOINT !== '')
  @IsUrl({ require_tld: false, require_protocol: true, protocols: ['http', 'https'] }, { message: 'must be an http(s) URL' })
  S3_ENDPOINT: string = '';

  @IsString()
  @IsNotEmpty()
  S3_REGION: string = 'us-east-1';

  @ValidateIf(s3)
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'is required with STORAGE_BACKEND=s3 and must be a bucket name (3-63 of a-z, 0-9, . and -)' })
  S3_BUCKET: string = '';

  @ValidateIf(s3)
  @IsNotEmpty({ message: 'is required with STORAGE_BACKEND=s3' })
  S3_ACCESS_KEY_ID: string = '';

  @ValidateIf(s3)
  @IsNotEmpty({ message: 'is required with STORAGE_BACKEND=s3' })
  S3_SECRET_ACCESS_KEY: string = '';

  /** MinIO and most self-hosted stores need path-style URLs (http://host/bucket/key). */
  @Transform(toBoolean)
  @IsBoolean()
  S3_FORCE_PATH_STYLE: boolean = true;

  /** Largest file an upload may carry; the gateway applies the same variable to the whole request. */
  @IsInt()
  @Min(1)
  UPLOAD_LIMIT_BYTES: number = 100 * 1024 * 1024;
}
