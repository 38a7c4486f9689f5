import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from '@jest/globals';
import { ContentInspector, TextDetector, incompleteTail, sniffContentType } from './content-inspector.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A PNG whose image data is far larger than the sniffed head (CRCs are not checked by sniffing). */
function largePng(dataBytes: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    return Buffer.concat([length, Buffer.from(type, 'ascii'), data, Buffer.alloc(4)]);
  };
  const header = Buffer.from('000003e8000003e80802000000', 'hex');
  return Buffer.concat([PNG.subarray(0, 8), chunk('IHDR', header), chunk('IDAT', randomBytes(dataBytes)), chunk('IEND', Buffer.alloc(0))]);
}

function detect(chunks: Buffer[]): boolean {
  const detector = new TextDetector();
  for (const chunk of chunks) detector.push(chunk);
  return detector.isText();
}

async function inspect(chunks: Buffer[]) {
  const inspector = new ContentInspector();
  await pipeline(Readable.from(chunks), inspector, new Writable({ write: (_c, _e, done) => done() }));
  return inspector.result();
}

describe('TextDetector', () => {
  const text = Buffer.from('héllo wörld – ✓ 𝄞 日本語\n', 'utf8');

  it('accepts UTF-8 split at every possible point, including inside a character', () => {
    for (let cut = 0; cut <= text.length; cut++) {
      expect(detect([text.subarray(0, cut), text.subarray(cut)])).toBe(true);
    }
    expect(detect([...text].map((b) => Buffer.from([b])))).toBe(true);
  });

  it('refuses invalid UTF-8, NUL bytes and a character cut off at the end', () => {
    expect(detect([Buffer.from([0x68, 0xff, 0x69])])).toBe(false);
    expect(detect([Buffer.from('abc\0def')])).toBe(false);
    expect(detect([Buffer.from([0x61, 0xe2, 0x82])])).toBe(false);
    expect(detect([Buffer.from([0xe2]), Buffer.from([0x41])])).toBe(false);
    expect(detect([randomBytes(4096)])).toBe(false);
  });

  it('finds the unfinished sequence at a chunk end', () => {
    expect(incompleteTail(Buffer.from('abc'))).toBe(0);
    expect(incompleteTail(Buffer.from([0x61, 0xe2, 0x82]))).toBe(2);
    expect(incompleteTail(Buffer.from([0xf0, 0x9d, 0x84]))).toBe(3);
    expect(incompleteTail(Buffer.from([0xe2, 0x82, 0xac]))).toBe(0);
  });
});

describe('content sniffing', () => {
  it('trusts the bytes: magic numbers, then UTF-8 text, then octet-stream', async () => {
    expect(await sniffContentType(PNG, false)).toBe('image/png');
    expect(await sniffContentType(Buffer.from('plain words'), true)).toBe('text/plain');
    expect(await sniffContentType(randomBytes(64), false)).toBe('application/octet-stream');
    expect(await sniffContentType(Buffer.alloc(0), true)).toBe('application/octet-stream');
  });

  it('hashes, counts and sniffs a stream in one pass', async () => {
    const body = largePng(200_000);
    const result = await inspect([body.subarray(0, 3), body.subarray(3, 70_000), body.subarray(70_000)]);
    expect(result).toEqual({ size: body.length, checksumSha256: createHash('sha256').update(body).digest('hex'), contentType: 'image/png' });
    expect((await inspect([Buffer.from('a,b\n1,2\n')])).contentType).toBe('text/plain');
  });
});
