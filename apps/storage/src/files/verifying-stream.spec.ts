import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from '@jest/globals';
import { ChecksumMismatchError, VerifyingStream } from './verifying-stream.js';

const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function run(chunks: Buffer[], expected: { checksumSha256: string; size: number }) {
  const received: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _e, done) {
      received.push(chunk);
      done();
    },
  });
  const error = await pipeline(Readable.from(chunks), new VerifyingStream(expected), sink).then(
    () => undefined,
    (e: unknown) => e,
  );
  return { error, received: Buffer.concat(received) };
}

describe('VerifyingStream', () => {
  const chunks = [Buffer.from('first '), Buffer.from('second '), Buffer.from('third')];
  const whole = Buffer.concat(chunks);

  it('passes matching content through unchanged', async () => {
    const { error, received } = await run(chunks, { checksumSha256: sha(whole), size: whole.length });
    expect(error).toBeUndefined();
    expect(received.equals(whole)).toBe(true);
  });

  it('withholds the last chunk and fails when the content does not match', async () => {
    const tampered = [chunks[0], Buffer.from('SECOND '), chunks[2]];
    const { error, received } = await run(tampered, { checksumSha256: sha(whole), size: whole.length });
    expect(error).toBeInstanceOf(ChecksumMismatchError);
    expect(received.length).toBeLessThan(whole.length);
  });

  it('fails as soon as there is more content than recorded, and when there is less', async () => {
    expect((await run([whole, Buffer.from('!')], { checksumSha256: sha(whole), size: whole.length })).error).toBeInstanceOf(ChecksumMismatchError);
    expect((await run([chunks[0]], { checksumSha256: sha(whole), size: whole.length })).error).toBeInstanceOf(ChecksumMismatchError);
  });

  it('passes an empty object', async () => {
    const { error, received } = await run([], { checksumSha256: sha(Buffer.alloc(0)), size: 0 });
    expect(error).toBeUndefined();
    expect(received.length).toBe(0);
  });
});
