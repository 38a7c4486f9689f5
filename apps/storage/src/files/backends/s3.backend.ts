import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError, assertObjectKey, type ByteRange, type FileBackend } from './file-backend.js';

/** Multipart part size: S3's minimum. The uploader buffers at most QUEUE_SIZE parts at once. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    endpoint: settings.endpoint || undefined,
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Any S3-compatible store (AWS S3, MinIO, R2, …). Uploads are multipart through lib-storage, so a
 * large file never sits in memory (at most QUEUE_SIZE × PART_SIZE bytes), and a failed upload is
 * aborted so no parts are left behind.
 */
export class S3FileBackend implements FileBackend {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async write(key: string, stream: Readable): Promise<{ size: number }> {
    assertObjectKey(key);
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: counter },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    try {
      await Promise.all([pipeline(stream, counter), upload.done()]);
      return { size };
    } catch (error) {
      // Whichever side failed, stop the other: nobody reads the stream once the upload is gone.
      counter.destroy();
      stream.destroy();
      await upload.abort().catch(() => undefined);
      await this.remove(key).catch(() => undefined);
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    assertObjectKey(key);
    try {
      const result = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
      );
      if (!(result.Body instanceof Readable)) throw new Error(`S3 answered ${key} without a stream body`);
      return result.Body;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    assertObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async exists(key: string): Promise<boolean> {
    assertObjectKey(key);
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}
