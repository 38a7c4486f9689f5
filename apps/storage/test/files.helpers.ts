import { createCipheriv, createHash, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { call, createTenant, e2eEnvironment, withKey, type TestTenant } from '@platform/testing';

/** Helpers of the files end-to-end tests: streaming uploads, downloads, the storage process's memory. */
export const env = e2eEnvironment();
export const storageEnv = env.serviceEnv.storage;
export type Body = Record<string, unknown> & { data?: Record<string, unknown>[]; next_cursor?: string | null; id?: string };
export const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Body>(env.gatewayUrl, path, request);

export const MiB = 1024 * 1024;
export const UPLOAD_LIMIT = Number(storageEnv.UPLOAD_LIMIT_BYTES ?? process.env.UPLOAD_LIMIT_BYTES ?? 100 * MiB);
// Services run in the directory the test runner started in (the repo root), like this process.
export const STORAGE_DIR = resolve(storageEnv.STORAGE_LOCAL_DIR ?? process.env.STORAGE_LOCAL_DIR ?? '.data/files');
/** A 1×1 PNG. */
export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d605a40000000049454e44ae426082',
  'hex',
);

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Deterministic pseudo-random 1 MiB chunks (AES-CTR keystream): any slice can be recomputed instead of kept. */
export function chunkOf(index: number): Buffer {
  const iv = Buffer.alloc(16);
  iv.writeUInt32BE(index, 12);
  return createCipheriv('aes-128-ctr', Buffer.alloc(16, 7), iv).update(Buffer.alloc(MiB));
}

/** A multipart body produced as it is sent, so the test never holds the file; its length is known up front. */
export function multipartStream(size: number, chunks: () => Iterable<Buffer>, filename = 'big.bin') {
  const boundary = `----e2e${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  function* parts() {
    yield head;
    yield* chunks();
    yield tail;
  }
  return { parts, length: head.length + size + tail.length, contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends a streamed multipart body with node:http: with its Content-Length (as curl sends a file),
 * or chunked. Stops sending once the answer has arrived (a 413 comes before the body is done).
 */
export function uploadStream(
  key: string,
  body: ReturnType<typeof multipartStream>,
  options: { base?: string; chunked?: boolean } = {},
): Promise<{ status: number; body: Body }> {
  return new Promise((resolveUpload, rejectUpload) => {
    const source = Readable.from(body.parts());
    const headers: Record<string, string> = { ...withKey(key), 'content-type': body.contentType };
    if (!options.chunked) headers['content-length'] = String(body.length);
    const req = request(`${options.base ?? env.gatewayUrl}/storage/files/upload`, { method: 'POST', headers }, (res) => {
      const received: Buffer[] = [];
      res.on('data', (chunk: Buffer) => received.push(chunk));
      res.on('end', () => {
        source.destroy();
        const text = Buffer.concat(received).toString('utf8');
        resolveUpload({ status: res.statusCode ?? 0, body: (text.startsWith('{') ? JSON.parse(text) : {}) as Body });
      });
      res.on('error', rejectUpload);
    });
    req.setTimeout(60_000, () => req.destroy(new Error('upload timed out')));
    req.on('error', rejectUpload);
    // Writing may fail once the server has answered and closed; the answer is what counts.
    pipeline(source, req).catch(() => undefined);
  });
}

export async function upload(key: string, form: FormData, headers: Record<string, string> = {}) {
  const res = await fetch(`${env.gatewayUrl}/storage/files/upload`, {
    method: 'POST',
    headers: { ...withKey(key), ...headers },
    body: form,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text.startsWith('{') ? JSON.parse(text) : {}) as Body };
}

export function fileForm(content: Buffer | string, filename = 'file.bin', type = 'application/octet-stream', fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', new Blob([typeof content === 'string' ? Buffer.from(content) : content], { type }), filename);
  return form;
}

/** Reads a download as a stream, hashing it; never holds it. */
export async function download(key: string, id: string, headers: Record<string, string> = {}, base = env.gatewayUrl) {
  const res = await fetch(`${base}/storage/files/${id}/content`, { headers: { ...withKey(key), ...headers }, signal: AbortSignal.timeout(60_000) });
  const hash = createHash('sha256');
  let size = 0;
  let kept: Buffer[] = [];
  let error: unknown;
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      size += chunk.length;
      if (size <= 4 * MiB) kept.push(Buffer.from(chunk));
    }
  } catch (e) {
    error = e;
  }
  if (size > 4 * MiB) kept = [];
  return { status: res.status, headers: res.headers, size, sha256: hash.digest('hex'), bytes: Buffer.concat(kept), error };
}

export function storagePid(): number {
  const file = readdirSync(env.pidDir).find((f) => /^storage\.\d+\.pid$/.test(f));
  if (!file) throw new Error(`no storage pid file in ${env.pidDir}`);
  return Number(file.split('.')[1]);
}

export function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

/** The storage process's peak RSS while `work` runs, sampled every 25 ms. */
export async function peakRss<T>(work: () => Promise<T>): Promise<{ result: T; before: number; peak: number }> {
  const pid = storagePid();
  const before = rss(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, rss(pid))), 25);
  try {
    const result = await work();
    peak = Math.max(peak, rss(pid));
    return { result, before, peak };
  } finally {
    clearInterval(timer);
  }
}

export const objectsOf = (tenant: TestTenant) => {
  const dir = join(STORAGE_DIR, tenant.tenant_id);
  return existsSync(dir) ? readdirSync(dir) : [];
};

export async function eventually(check: () => boolean, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if (check()) return true;
  return check();
}

/** Tenants made here; their objects are removed afterwards (the run's database is dropped, the files would stay). */
export const tenants: TestTenant[] = [];
export async function tenant(name: string): Promise<TestTenant> {
  const made = await createTenant(env.gatewayUrl, env.adminToken, name);
  tenants.push(made);
  return made;
}
