import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, open } from 'node:fs/promises';
import { once } from 'node:events';
import { dirname, join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectNotFoundError, assertObjectKey, type ByteRange, type FileBackend } from './file-backend.js';

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files on a local disk (development, single-node deployments, tests). A write goes to a hidden
 * temporary name beside the target and is renamed on success: a reader never sees half a file,
 * and a crash leaves only `.*.tmp` names to sweep.
 */
export class LocalFileBackend implements FileBackend {
  readonly root: string;

  constructor(directory: string) {
    this.root = resolve(directory);
  }

  pathOf(key: string): string {
    assertObjectKey(key);
    return join(this.root, ...key.split('/'));
  }

  async write(key: string, stream: Readable): Promise<{ size: number }> {
    const target = this.pathOf(key);
    // The source may fail while the directory is made, before the pipeline listens: the error stays
    // on the stream (the pipeline rejects with it) instead of going unhandled.
    const held = () => undefined;
    stream.on('error', held);
    try {
      await mkdir(dirname(target), { recursive: true });
    } finally {
      stream.off('error', held);
    }
    const temporary = join(dirname(target), `.${key.split('/').pop()}.${randomBytes(6).toString('hex')}.tmp`);
    const out = createWriteStream(temporary, { flags: 'wx' });
    try {
      await pipeline(stream, out);
      // The data reaches the disk before the name does: a crash after the rename never exposes a hole.
      const handle = await open(temporary, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, target);
      return { size: out.bytesWritten };
    } catch (error) {
      // The file may still be opening when the stream fails: remove it only once it is closed.
      if (!out.closed) await once(out, 'close').catch(() => undefined);
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const path = this.pathOf(key);
    // Opened before returning, so a missing object is a rejection here rather than a stream error later.
    const handle = await open(path, 'r').catch((error: unknown) => {
      throw isMissing(error) ? new ObjectNotFoundError(key) : error;
    });
    return handle.createReadStream({ start: range?.start, end: range?.end, autoClose: true, highWaterMark: 64 * 1024 });
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async exists(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
  }
}
