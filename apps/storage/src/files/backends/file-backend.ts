import type { Readable } from 'node:stream';

export const FILE_BACKEND = Symbol('FILE_BACKEND');

/** Inclusive byte range, as in `Range: bytes=start-end`. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where file contents live. Keys are `<tenant id>/<file id>`; the database row is the index and
 * is written only after `write` resolved, so a key without a row is garbage, never a broken file.
 */
export interface FileBackend {
  /**
   * Stores the stream under `key`. Resolves once the object is complete and durable; rejects
   * (leaving nothing behind) if the stream errors or the store fails.
   */
  write(key: string, stream: Readable): Promise<{ size: number }>;
  /** The object's bytes, or the inclusive range of them; rejects with ObjectNotFoundError. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Idempotent: removing a missing object is not an error. */
  remove(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
}

export class ObjectNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
    this.name = 'ObjectNotFoundError';
  }
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Keys are made by the service, but a backend still refuses anything that could leave its root. */
export function assertObjectKey(key: string): void {
  const parts = key.split('/');
  if (parts.length < 1 || parts.length > 4 || !parts.every((p) => SEGMENT.test(p) && p !== '..')) {
    throw new Error(`Invalid object key: ${key}`);
  }
}
