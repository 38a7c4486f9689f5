import { createHash, randomUUID } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { withKey, type TestTenant } from '@platform/testing';
import {
  env,
  gw,
  type Body,
  MiB,
  UPLOAD_LIMIT,
  STORAGE_DIR,
  PNG,
  sha256,
  chunkOf,
  multipartStream,
  uploadStream,
  upload,
  fileForm,
  download,
  peakRss,
  objectsOf,
  eventually,
  tenants,
  tenant,
} from './files.helpers.js';

describe('files end to end', () => {
  let a: TestTenant;
  let b: TestTenant;

  beforeAll(async () => {
    [a, b] = await Promise.all([tenant('files-a'), tenant('files-b')]);
  });

  afterAll(() => {
    for (const t of tenants) rmSync(join(STORAGE_DIR, t.tenant_id), { recursive: true, force: true });
  });

  it('streams a 50 MiB upload and download with the storage process staying small', async () => {
    const CHUNKS = 50;
    // Warm up first (10 MiB each way), so the baseline is the service at work, not idle: the first
    // large transfer grows the process's working set once (~30 MiB of heap and buffers), then it stays flat.
    const warm = await upload(a.test_key, fileForm(Buffer.alloc(10 * MiB, 1), 'warm.bin'));
    expect(warm.status).toBe(201);
    await download(a.test_key, warm.body.id!);

    const expected = createHash('sha256');
    const up = await peakRss(() =>
      uploadStream(
        a.test_key,
        multipartStream(CHUNKS * MiB, function* () {
          for (let i = 0; i < CHUNKS; i++) {
            const chunk = chunkOf(i);
            expected.update(chunk);
            yield chunk;
          }
        }),
      ),
    );
    expect(up.result.status).toBe(201);
    const file = up.result.body;
    expect(file).toMatchObject({ name: 'big.bin', size: CHUNKS * MiB, content_type: 'application/octet-stream', checksum_sha256: expected.digest('hex') });

    const down = await peakRss(() => download(a.test_key, file.id!));
    expect(down.result.status).toBe(200);
    expect(down.result.error).toBeUndefined();
    expect(down.result.headers.get('content-length')).toBe(String(CHUNKS * MiB));
    expect(down.result.headers.get('etag')).toBe(`"${String(file.checksum_sha256)}"`);
    expect({ size: down.result.size, sha256: down.result.sha256 }).toEqual({ size: CHUNKS * MiB, sha256: file.checksum_sha256 });

    const growth = { upload: up.peak - up.before, download: down.peak - down.before };
    process.stdout.write(
      `[files e2e] storage RSS: upload ${(up.before / MiB).toFixed(1)} → peak ${(up.peak / MiB).toFixed(1)} MiB; download ${(down.before / MiB).toFixed(1)} → peak ${(down.peak / MiB).toFixed(1)} MiB\n`,
    );
    expect(growth.upload).toBeLessThan(40 * MiB);
    expect(growth.download).toBeLessThan(40 * MiB);

    // A range across the boundary of the first two chunks, and a suffix range.
    const start = MiB - 100;
    const ranged = await download(a.test_key, file.id!, { range: `bytes=${start}-${start + 199}` });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes ${start}-${start + 199}/${CHUNKS * MiB}`);
    expect(ranged.bytes.equals(Buffer.concat([chunkOf(0).subarray(start), chunkOf(1).subarray(0, 100)]))).toBe(true);
    const tail = await download(a.test_key, file.id!, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(chunkOf(CHUNKS - 1).subarray(MiB - 10))).toBe(true);

    expect((await gw(`/storage/files/${file.id!}/verify`, { headers: withKey(a.test_key) })).body).toEqual({
      id: file.id,
      checksum_sha256: file.checksum_sha256,
      valid: true,
    });
    for (const id of [file.id!, warm.body.id!]) {
      expect((await gw(`/storage/files/${id}`, { method: 'DELETE', headers: withKey(a.test_key) })).status).toBe(204);
      expect((await gw(`/storage/files/${id}`, { headers: withKey(a.test_key) })).status).toBe(404);
      expect(existsSync(join(STORAGE_DIR, a.tenant_id, id))).toBe(false);
    }
  }, 120_000);

  it('detects a stored object changed behind its back: verify says invalid, a full download is cut', async () => {
    const content = chunkOf(7).subarray(0, 300_000);
    const up = await upload(a.test_key, fileForm(content, 'ledger.bin'));
    expect(up.status).toBe(201);
    const id = up.body.id!;
    const handle = await open(join(STORAGE_DIR, a.tenant_id, id), 'r+');
    await handle.write(Buffer.from('tampered'), 0, 8, 250_000);
    await handle.close();

    expect((await gw(`/storage/files/${id}/verify`, { headers: withKey(a.test_key) })).body).toEqual({ id, checksum_sha256: sha256(content), valid: false });
    // The full download is cut before its last bytes. Checked at the service: the gateway does not
    // yet pass an upstream's cut connection on to its client (the client would wait for the rest).
    const full = await download(a.test_key, id, {}, env.serviceUrls.storage);
    expect(full.status).toBe(200);
    expect(full.headers.get('content-length')).toBe(String(content.length));
    expect(full.size).toBeLessThan(content.length);
    expect(full.error).toBeDefined();
    // A range is served as stored (it cannot be checked against the whole file's checksum).
    const ranged = await download(a.test_key, id, { range: 'bytes=0-99' });
    expect(ranged.bytes.equals(content.subarray(0, 100))).toBe(true);
  });

  it('sniffs the content type, keeps the declared one apart, and serves download headers', async () => {
    const png = await upload(a.test_key, fileForm(PNG, 'pixel.txt', 'text/plain', { name: 'images/Grüße pixel.png', metadata: '{"source":"e2e"}' }));
    expect(png.status).toBe(201);
    expect(png.body).toMatchObject({
      name: 'images/Grüße pixel.png',
      content_type: 'image/png',
      declared_content_type: 'text/plain',
      size: PNG.length,
      checksum_sha256: sha256(PNG),
      metadata: { source: 'e2e' },
      customer_id: null,
    });
    const text = await upload(a.test_key, fileForm('id,total\n1,9.50\n', 'orders.csv', 'application/octet-stream'));
    expect(text.body).toMatchObject({ name: 'orders.csv', content_type: 'text/plain' });
    const binary = await upload(a.test_key, fileForm(Buffer.from([0, 1, 2, 255, 254]), 'blob.dat', 'image/png'));
    expect(binary.body).toMatchObject({ content_type: 'application/octet-stream', declared_content_type: 'image/png' });

    const got = await download(a.test_key, png.body.id!);
    expect(got.bytes.equals(PNG)).toBe(true);
    expect(got.headers.get('content-type')).toBe('image/png');
    expect(got.headers.get('content-length')).toBe(String(PNG.length));
    expect(got.headers.get('content-disposition')).toBe(`attachment; filename="images/Gr__e pixel.png"; filename*=UTF-8''images%2FGr%C3%BC%C3%9Fe%20pixel.png`);
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    expect((await gw(`/storage/files/${png.body.id!}`, { headers: withKey(a.test_key) })).body).toEqual(png.body);
  });

  it('documents the download as any media type: each file comes back with its own sniffed type', async () => {
    const text = await upload(a.test_key, fileForm('id,total\n1,9.50\n', 'orders.csv', 'application/octet-stream'));
    expect((await download(a.test_key, text.body.id!)).headers.get('content-type')).toMatch(/^text\/plain/);
    const docs = (await gw('/v3/api-docs')).body as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, unknown> }> } }> };
    expect(Object.keys(docs.paths['/storage/files/{id}/content'].get.responses['200'].content)).toEqual(['*/*']);
  });

  it('lists with filters and cursors', async () => {
    const t = await tenant('files-list');
    const made: Body[] = [];
    // Folder-like names come from the name field: a part's filename loses any directory part.
    for (const [content, name] of [
      ['a', 'reports/2026/a.txt'],
      ['b', 'reports/2026/b.txt'],
      [PNG, 'logo.png'],
      ['c', 'reports_x.txt'],
    ] as const) {
      made.push((await upload(t.test_key, fileForm(content, 'upload.bin', 'application/octet-stream', { name }))).body);
    }
    expect(made.map((f) => f.name)).toEqual(['reports/2026/a.txt', 'reports/2026/b.txt', 'logo.png', 'reports_x.txt']);
    const ids = (res: { body: Body }) => (res.body.data ?? []).map((f) => f.id);
    const all = await gw('/storage/files', { headers: withKey(t.test_key) });
    expect(ids(all)).toEqual(made.map((f) => f.id).reverse());
    // `_` in a prefix is a character, not a wildcard.
    expect(ids(await gw('/storage/files?name=reports/', { headers: withKey(t.test_key) }))).toEqual([made[1].id, made[0].id]);
    expect(ids(await gw('/storage/files?name=reports_', { headers: withKey(t.test_key) }))).toEqual([made[3].id]);
    expect(ids(await gw('/storage/files?content_type=image/png', { headers: withKey(t.test_key) }))).toEqual([made[2].id]);
    // Bounds are exclusive, and a created_at read back is exact (milliseconds, as shown).
    const bound = String(made[1].created_at);
    const newestFirst = (keep: (at: number) => boolean) =>
      made
        .filter((f) => keep(Date.parse(String(f.created_at))))
        .map((f) => f.id)
        .reverse();
    expect(ids(await gw(`/storage/files?created_after=${encodeURIComponent(bound)}`, { headers: withKey(t.test_key) }))).toEqual(
      newestFirst((at) => at > Date.parse(bound)),
    );
    expect(ids(await gw(`/storage/files?created_before=${encodeURIComponent(bound)}`, { headers: withKey(t.test_key) }))).toEqual(
      newestFirst((at) => at < Date.parse(bound)),
    );
    expect(newestFirst((at) => at > Date.parse(bound))).not.toContain(made[1].id);
    const page = await gw('/storage/files?limit=3', { headers: withKey(t.test_key) });
    expect(page.body.data).toHaveLength(3);
    const rest = await gw(`/storage/files?limit=3&cursor=${String(page.body.next_cursor)}`, { headers: withKey(t.test_key) });
    expect(ids(rest)).toEqual([made[0].id]);
    expect(rest.body.next_cursor).toBeNull();
  });

  it('refuses a file over the limit with 413 and keeps nothing, in the service and through the gateway', async () => {
    const t = await tenant('files-limit');
    const zeros = Buffer.alloc(MiB);
    const overLimit = () =>
      multipartStream(UPLOAD_LIMIT + 1, function* () {
        for (let left = UPLOAD_LIMIT + 1; left > 0; left -= MiB) yield left >= MiB ? zeros : zeros.subarray(0, left);
      });
    // Straight to the service, chunked: its own limit stops the stream part way.
    const direct = await uploadStream(t.test_key, overLimit(), { base: env.serviceUrls.storage, chunked: true });
    expect(direct.status).toBe(413);
    expect(direct.body).toMatchObject({ error: 'Payload Too Large', status: 413 });
    // Through the gateway with its length declared: refused before it reaches the service.
    const proxied = await uploadStream(t.test_key, overLimit());
    expect(proxied.status).toBe(413);
    expect(await eventually(() => objectsOf(t).length === 0)).toBe(true);
    expect((await gw('/storage/files', { headers: withKey(t.test_key) })).body.data).toEqual([]);
  }, 120_000);

  it('answers an Idempotency-Key with the first upload, and a different upload with 409', async () => {
    const key = { 'idempotency-key': `upload-${randomUUID()}` };
    const first = await upload(a.test_key, fileForm('same bytes', 'same.txt'), key);
    expect(first.status).toBe(201);
    const again = await upload(a.test_key, fileForm('same bytes', 'same.txt'), key);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await upload(a.test_key, fileForm('other bytes', 'same.txt'), key)).status).toBe(409);
    expect((await upload(a.test_key, fileForm('same bytes', 'renamed.txt'), key)).status).toBe(409);
    const listed = await gw('/storage/files?name=same.txt', { headers: withKey(a.test_key) });
    expect((listed.body.data ?? []).map((f) => f.id)).toEqual([first.body.id]);
    // The key belongs to the tenant that used it.
    const elsewhere = await upload(b.test_key, fileForm('same bytes', 'same.txt'), key);
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.body.id).not.toBe(first.body.id);
    expect((await upload(a.test_key, fileForm('x'), { 'idempotency-key': 'é'.repeat(3) })).status).toBe(400);
  });

  it('refuses bad input with 4xx, never 500', async () => {
    const statuses: number[] = [];
    const expectStatus = async (promise: Promise<{ status: number; body: Body }>, status: number, field?: string) => {
      const res = await promise;
      statuses.push(res.status);
      expect(res.status).toBe(status);
      if (field) expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    };
    const noFile = new FormData();
    noFile.append('name', 'lonely');
    await expectStatus(upload(a.test_key, noFile), 400, 'file');
    await expectStatus(gw('/storage/files/upload', { headers: withKey(a.test_key), body: { file: 'x' } }), 415);
    await expectStatus(gw('/storage/files/upload', { headers: { ...withKey(a.test_key), 'content-type': 'text/plain' }, body: 'plain text' }), 415);
    await expectStatus(gw('/storage/files/upload', { method: 'POST', headers: withKey(a.test_key) }), 415);
    await expectStatus(upload(a.test_key, fileForm('x', 'x.txt', 'text/plain', { colour: 'red' })), 400, 'colour');
    await expectStatus(upload(a.test_key, fileForm('x', 'x.txt', 'text/plain', { name: 'x'.repeat(256) })), 400, 'name');
    await expectStatus(upload(a.test_key, fileForm('x', 'x.txt', 'text/plain', { name: 'tab\there' })), 400, 'name');
    await expectStatus(upload(a.test_key, fileForm('x', 'x.txt', 'text/plain', { metadata: '[]' })), 400, 'metadata');
    for (const path of ['/storage/files/not-a-uuid', '/storage/files/123/content', '/storage/files/x/verify']) {
      await expectStatus(gw(path, { headers: withKey(a.test_key) }), 400);
    }
    await expectStatus(gw('/storage/files/nope', { method: 'DELETE', headers: withKey(a.test_key) }), 400);
    await expectStatus(gw(`/storage/files/${randomUUID()}`, { headers: withKey(a.test_key) }), 404);
    await expectStatus(gw('/storage/files?colour=red', { headers: withKey(a.test_key) }), 400, 'colour');
    await expectStatus(gw('/storage/files?cursor=garbage', { headers: withKey(a.test_key) }), 400);
    await expectStatus(gw('/storage/files?created_after=yesterday', { headers: withKey(a.test_key) }), 400, 'created_after');
    await expectStatus(gw('/storage/files?limit=500', { headers: withKey(a.test_key) }), 400, 'limit');

    const small = await upload(a.test_key, fileForm('0123456789', 'digits.txt'));
    const beyond = await gw(`/storage/files/${small.body.id!}/content`, { headers: { ...withKey(a.test_key), range: 'bytes=10-20' } });
    statuses.push(beyond.status);
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */10');
    expect(beyond.body).toMatchObject({ error: 'Range Not Satisfiable', status: 416 });
    expect(statuses.every((s) => s < 500)).toBe(true);
  });

  it('keeps every tenant, environment and customer to its own files', async () => {
    const mine = await upload(a.test_key, fileForm('tenant A sandbox', 'a.txt'));
    const id = mine.body.id!;
    // Tenant B: every route answers as if the file did not exist.
    for (const path of [`/storage/files/${id}`, `/storage/files/${id}/content`, `/storage/files/${id}/verify`]) {
      expect((await gw(path, { headers: withKey(b.test_key) })).status).toBe(404);
    }
    expect((await gw(`/storage/files/${id}`, { method: 'DELETE', headers: withKey(b.test_key) })).status).toBe(404);
    expect((await gw('/storage/files', { headers: withKey(b.test_key) })).body.data?.some((f) => f.id === id)).toBe(false);
    // A's live key (production) does not see sandbox files.
    expect((await gw(`/storage/files/${id}`, { headers: withKey(a.live_key) })).status).toBe(404);
    expect((await gw('/storage/files', { headers: withKey(a.live_key) })).body.data).toEqual([]);

    // Customers: a customer key sees its own files only; the tenant key sees them all.
    const customer = async (name: string) => (await gw('/portal/customers', { headers: withKey(a.test_key), body: { name } })).body.id as string;
    const [c1, c2] = [await customer('Globex'), await customer('Initech')];
    const keyRes = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: { name: 'globex-files', type: 'customer', customer_id: c1, scopes: ['storage:read', 'storage:write'], data_plane_id: a.sandbox_data_plane_id },
    });
    expect(keyRes.status).toBe(201);
    const c1Key = keyRes.body.key as string;
    const ownFile = await upload(c1Key, fileForm('globex data', 'globex.txt'));
    expect(ownFile.body).toMatchObject({ customer_id: c1 });
    const otherFile = await upload(a.test_key, fileForm('initech data', 'initech.txt'), { 'x-scope-key': c2 });
    expect(otherFile.body).toMatchObject({ customer_id: c2 });
    const seen = await gw('/storage/files', { headers: withKey(c1Key) });
    expect((seen.body.data ?? []).map((f) => f.id)).toEqual([ownFile.body.id]);
    for (const other of [id, otherFile.body.id!]) {
      expect((await gw(`/storage/files/${other}/content`, { headers: withKey(c1Key) })).status).toBe(404);
      expect((await gw(`/storage/files/${other}`, { method: 'DELETE', headers: withKey(c1Key) })).status).toBe(404);
    }
    expect((await download(c1Key, ownFile.body.id!)).bytes.toString()).toBe('globex data');
    const tenantView = await gw('/storage/files?name=globex', { headers: withKey(a.test_key) });
    expect((tenantView.body.data ?? []).map((f) => f.id)).toEqual([ownFile.body.id]);

    // Scopes: reading needs storage:read, uploading storage:write.
    const reader = await gw('/account/api-keys', {
      headers: withKey(a.test_key),
      body: { name: 'files-reader', type: 'tenant', scopes: ['storage:read'], data_plane_id: a.sandbox_data_plane_id },
    });
    expect((await upload(reader.body.key as string, fileForm('x'))).status).toBe(403);
    expect((await gw(`/storage/files/${id}`, { headers: withKey(reader.body.key as string) })).status).toBe(200);
  });
});
