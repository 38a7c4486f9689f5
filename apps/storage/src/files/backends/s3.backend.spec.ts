import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from '@jest/globals';
import { ObjectNotFoundError } from './file-backend.js';
import { S3FileBackend } from './s3.backend.js';

interface Call {
  command: string;
  input: Record<string, unknown>;
}

/**
 * A real S3Client whose requests stop at the first middleware and are answered from memory: no
 * network, the SDK's own command objects and lib-storage's upload logic are exercised as they are.
 */
function fakeS3() {
  const objects = new Map<string, Buffer>();
  const calls: Call[] = [];
  const client = new S3Client({
    region: 'us-east-1',
    credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    endpoint: 'http://fake:9000',
    forcePathStyle: true,
  });
  const notFound = () => Object.assign(new Error('not found'), { name: 'NoSuchKey', $metadata: { httpStatusCode: 404 } });
  client.middlewareStack.add(
    (_next, context) => (args) => {
      const input = args.input as Record<string, unknown>;
      const command = context.commandName ?? '';
      calls.push({ command, input });
      const key = String(input.Key);
      const output = (): unknown => {
        switch (command) {
          case 'PutObjectCommand': {
            const body = input.Body;
            objects.set(key, Buffer.isBuffer(body) ? body : Buffer.from(body as Uint8Array));
            return { ETag: '"x"' };
          }
          case 'GetObjectCommand': {
            const stored = objects.get(key);
            if (!stored) throw notFound();
            const range = /^bytes=(\d+)-(\d+)$/.exec(typeof input.Range === 'string' ? input.Range : '');
            return { Body: Readable.from([range ? stored.subarray(Number(range[1]), Number(range[2]) + 1) : stored]) };
          }
          case 'HeadObjectCommand':
            if (!objects.has(key)) throw Object.assign(new Error('not found'), { name: 'NotFound', $metadata: { httpStatusCode: 404 } });
            return {};
          case 'DeleteObjectCommand':
            objects.delete(key);
            return {};
          default:
            throw new Error(`unexpected ${command}`);
        }
      };
      try {
        return Promise.resolve({ output: { $metadata: {}, ...(output() as object) }, response: {} });
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
    { step: 'initialize', name: 'fakeS3' },
  );
  return { client, objects, calls };
}

describe('S3FileBackend (fake client)', () => {
  it('uploads a stream, reads it whole and by range, checks and removes it', async () => {
    const { client, objects, calls } = fakeS3();
    const backend = new S3FileBackend(client, 'files');
    expect(await backend.write('t1/f1', Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect(objects.get('t1/f1')?.toString()).toBe('hello world');
    expect(calls[0]).toMatchObject({ command: 'PutObjectCommand', input: { Bucket: 'files', Key: 't1/f1' } });
    expect(await text(await backend.read('t1/f1'))).toBe('hello world');
    expect(await text(await backend.read('t1/f1', { start: 6, end: 10 }))).toBe('world');
    expect(calls.at(-1)).toMatchObject({ command: 'GetObjectCommand', input: { Range: 'bytes=6-10' } });
    expect(await backend.exists('t1/f1')).toBe(true);
    await backend.remove('t1/f1');
    expect(await backend.exists('t1/f1')).toBe(false);
    await expect(backend.read('t1/f1')).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('fails the write and stores nothing when the source stream fails', async () => {
    const { client, objects } = fakeS3();
    const backend = new S3FileBackend(client, 'files');
    const failing = new Readable({ read() {} });
    failing.push(Buffer.from('partial'));
    setTimeout(() => failing.destroy(new Error('client went away')), 10);
    await expect(backend.write('t1/f2', failing)).rejects.toThrow();
    expect(objects.has('t1/f2')).toBe(false);
  });

  it('refuses keys that are not plain object keys', async () => {
    const backend = new S3FileBackend(fakeS3().client, 'files');
    await expect(backend.read('../x')).rejects.toThrow('Invalid object key');
  });
});
