import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

export class ChecksumMismatchError extends Error {
  constructor(
    readonly expected: { checksumSha256: string; size: number },
    readonly actual: { checksumSha256: string | null; size: number },
  ) {
    super(
      `Stored object does not match its record: expected ${expected.size} bytes sha256 ${expected.checksumSha256}, read ${actual.size} bytes${actual.checksumSha256 ? ` sha256 ${actual.checksumSha256}` : ' (too many)'}`,
    );
    this.name = 'ChecksumMismatchError';
  }
}

/**
 * Passes content through while hashing it, and holds back the most recent chunk until the next
 * one arrives. Only when the whole object has been read and matches its recorded size and
 * SHA-256 is the last chunk released; otherwise the stream fails, so a client reading with
 * Content-Length receives a truncated body (a failed download) and never silently corrupt data.
 */
export class VerifyingStream extends Transform {
  private readonly hash = createHash('sha256');
  private held: Buffer | undefined;
  private size = 0;

  constructor(private readonly expected: { checksumSha256: string; size: number }) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.expected.size) {
      done(new ChecksumMismatchError(this.expected, { checksumSha256: null, size: this.size }));
      return;
    }
    this.hash.update(chunk);
    const release = this.held;
    this.held = chunk;
    done(null, release);
  }

  override _flush(done: TransformCallback): void {
    const actual = this.hash.digest('hex');
    if (actual !== this.expected.checksumSha256 || this.size !== this.expected.size) {
      done(new ChecksumMismatchError(this.expected, { checksumSha256: actual, size: this.size }));
      return;
    }
    done(null, this.held);
  }
}
