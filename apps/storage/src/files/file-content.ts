import type { Readable } from 'node:stream';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileBackend } from './backends/file-backend.js';
import { ContentInspector, type InspectedContent } from './content-inspector.js';

async function settleAll(work: Promise<unknown>[]): Promise<void> {
  // Wait for every side (a failed write has removed its partial object by then), then report the first failure.
  const results = await Promise.allSettled(work);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Streams content into the backend under `key`, learning its size, checksum and type on the way. */
export async function storeContent(backend: FileBackend, key: string, source: Readable): Promise<InspectedContent> {
  const inspector = new ContentInspector();
  await settleAll([pipeline(source, inspector), backend.write(key, inspector)]);
  return inspector.result();
}

/** The same inspection without storing: a repeated Idempotency-Key is compared, not stored twice. */
export async function inspectContent(source: Readable): Promise<InspectedContent> {
  const inspector = new ContentInspector();
  const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(source, inspector, discard);
  return inspector.result();
}
