import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';

/** Enough for file-type to recognise containers whose signature is not in the first 4 KiB (office files in ZIPs). */
export const SNIFF_BYTES = 64 * 1024;

const EMPTY = Buffer.alloc(0);

/** Length of a UTF-8 sequence from its lead byte; 1 for bytes that cannot lead one (isUtf8 rejects them). */
function sequenceLength(lead: number): number {
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 1;
}

/** Bytes at the end of `chunk` that start a multi-byte sequence the chunk does not finish. */
export function incompleteTail(chunk: Buffer): number {
  for (let i = 1; i <= Math.min(3, chunk.length); i++) {
    const byte = chunk[chunk.length - i];
    if ((byte & 0xc0) === 0x80) continue;
    if (byte < 0xc0) return 0;
    return sequenceLength(byte) > i ? i : 0;
  }
  return 0;
}

/**
 * Is the whole stream UTF-8 text? Checked chunk by chunk with the native validator; a sequence
 * split across chunks is carried over. NUL never occurs in text, so it marks binary data.
 */
export class TextDetector {
  private text = true;
  private carry: Buffer = EMPTY;

  push(chunk: Buffer): void {
    if (!this.text) return;
    if (chunk.includes(0)) {
      this.text = false;
      return;
    }
    let body = chunk;
    if (this.carry.length) {
      const need = sequenceLength(this.carry[0]) - this.carry.length;
      if (chunk.length < need) {
        this.carry = Buffer.concat([this.carry, chunk]);
        return;
      }
      const joined = Buffer.concat([this.carry, chunk.subarray(0, need)]);
      this.carry = EMPTY;
      if (!isUtf8(joined)) {
        this.text = false;
        return;
      }
      body = chunk.subarray(need);
    }
    const cut = incompleteTail(body);
    if (!isUtf8(body.subarray(0, body.length - cut))) {
      this.text = false;
      return;
    }
    if (cut) this.carry = Buffer.from(body.subarray(body.length - cut));
  }

  /** After the last chunk: a sequence still open means the text was cut, i.e. not UTF-8. */
  isText(): boolean {
    return this.text && this.carry.length === 0;
  }
}

export interface InspectedContent {
  size: number;
  checksumSha256: string;
  /** Sniffed from the bytes; the client's declared type is never trusted. */
  contentType: string;
}

/**
 * What the service learns about content while it streams past, without holding it: size,
 * SHA-256, the first bytes for type sniffing, and whether it is UTF-8 text.
 */
export class ContentInspector extends Transform {
  private readonly hash = createHash('sha256');
  private readonly text = new TextDetector();
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.hash.update(chunk);
    this.text.push(chunk);
    this.size += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headLength);
      this.head.push(Buffer.from(part));
      this.headLength += part.length;
    }
    done(null, chunk);
  }

  /** Call once the stream has ended. */
  async result(): Promise<InspectedContent> {
    const head = Buffer.concat(this.head);
    return { size: this.size, checksumSha256: this.hash.digest('hex'), contentType: await sniffContentType(head, this.text.isText()) };
  }
}

/** file-type's verdict from the magic bytes; else text/plain for UTF-8 text; else octet-stream (also for empty content). */
export async function sniffContentType(head: Buffer, isText: boolean): Promise<string> {
  if (head.length === 0) return 'application/octet-stream';
  const detected = await fileTypeFromBuffer(head);
  if (detected) return detected.mime;
  return isText ? 'text/plain' : 'application/octet-stream';
}
