import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Bus, BusError, StorageSubjects, configureNamespace, connectNats, type Envelope, type FileUploadedEvent } from '@platform/messaging';
import { withKey, type TestTenant } from '@platform/testing';
import { storageEnv, gw, STORAGE_DIR, sha256, eventually, tenants, tenant } from './files.helpers.js';

describe('files: the workflow steps file.read and file.write over NATS', () => {
  let a: TestTenant;
  let b: TestTenant;
  let bus: Bus;
  const events: Envelope<FileUploadedEvent>[] = [];
  const context = (tenant: TestTenant) => ({
    requestId: `e2e-${randomUUID()}`,
    actor: 'e2e',
    tenantId: tenant.tenant_id,
    environmentId: tenant.sandbox_data_plane_id,
  });
  const statusOf = (request: Promise<unknown>) =>
    request.then(
      () => 200,
      (error: unknown) => (error instanceof BusError ? error.remote?.status : undefined),
    );

  beforeAll(async () => {
    [a, b] = await Promise.all([tenant('files-msg-a'), tenant('files-msg-b')]);
    configureNamespace(storageEnv.NATS_NAMESPACE ?? '');
    bus = new Bus(await connectNats({ url: storageEnv.NATS_URL ?? process.env.NATS_URL ?? 'nats://127.0.0.1:4222', name: 'files-e2e' }));
    bus.subscribeAll(StorageSubjects.fileUploaded, (event) => events.push(event));
    await bus.connection.flush();
  });

  afterAll(async () => {
    await bus?.connection.close();
    for (const t of tenants) rmSync(join(STORAGE_DIR, t.tenant_id), { recursive: true, force: true });
  });

  it('writes base64 content, announces it, and reads it back; other tenants and big files are refused', async () => {
    const content = Buffer.from('step output,42\n');
    const written = await bus.request(
      StorageSubjects.filesWrite,
      { name: 'step.csv', contentType: 'text/csv', contentBase64: content.toString('base64') },
      context(a),
    );
    expect(written).toMatchObject({ name: 'step.csv', size: content.length, contentType: 'text/plain', checksum: sha256(content) });
    expect(await eventually(() => events.some((e) => e.data.fileId === written.fileId))).toBe(true);
    expect(events.find((e) => e.data.fileId === written.fileId)).toMatchObject({
      context: { tenantId: a.tenant_id },
      data: { name: 'step.csv', size: content.length, contentType: 'text/plain' },
    });

    const read = await bus.request(StorageSubjects.filesRead, { fileId: written.fileId }, context(a));
    expect(read).toEqual({
      fileId: written.fileId,
      name: 'step.csv',
      contentType: 'text/plain',
      size: content.length,
      contentBase64: content.toString('base64'),
    });
    // The HTTP API sees the same file.
    expect((await gw(`/storage/files/${written.fileId}`, { headers: withKey(a.test_key) })).status).toBe(200);

    const statuses = await Promise.all([
      statusOf(bus.request(StorageSubjects.filesRead, { fileId: written.fileId, maxBytes: 4 }, context(a))),
      statusOf(bus.request(StorageSubjects.filesRead, { fileId: written.fileId }, context(b))),
      statusOf(bus.request(StorageSubjects.filesRead, { fileId: 'nope' }, context(a))),
      statusOf(bus.request(StorageSubjects.filesWrite, { name: 'x', contentBase64: 'not base64!' }, context(a))),
      statusOf(bus.request(StorageSubjects.filesWrite, { name: 'x', contentBase64: '' }, { requestId: 'e2e' })),
    ]);
    expect(statuses).toEqual([413, 404, 400, 400, 400]);
  });
});
