import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ObjectNotFoundError } from './file-backend.js';
import { LocalFileBackend } from './local.backend.js';

const root = mkdtempSync(join(tmpdir(), 'local-backend-'));
const backend = new LocalFileBackend(root);
const KEY = 'tenant-a/0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e';

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('LocalFileBackend', () => {
  it('writes, reads whole and by range, and removes', async () => {
    expect(await backend.write(KEY, Readable.from([Buffer.from('hello '), Buffer.from('world')]))).toEqual({ size: 11 });
    expect(await backend.exists(KEY)).toBe(true);
    expect(await text(await backend.read(KEY))).toBe('hello world');
    expect(await text(await backend.read(KEY, { start: 6, end: 10 }))).toBe('world');
    await backend.remove(KEY);
    await backend.remove(KEY);
    expect(await backend.exists(KEY)).toBe(false);
    await expect(backend.read(KEY)).rejects.toBeInstanceOf(ObjectNotFoundError);
  });

  it('leaves nothing behind, not even a temporary file, when the stream fails', async () => {
    const failing = new Readable({ read() {} });
    failing.push(Buffer.alloc(1024));
    setTimeout(() => failing.destroy(new Error('client went away')), 10);
    await expect(backend.write('tenant-b/x1', failing)).rejects.toThrow('client went away');
    expect(readdirSync(join(root, 'tenant-b'))).toEqual([]);
  });

  it('refuses keys that could leave its directory', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '.hidden/x']) {
      await expect(backend.write(key, Readable.from([]))).rejects.toThrow('Invalid object key');
    }
  });
});
