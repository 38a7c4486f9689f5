import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, StorageSubjects, configureNamespace, connectNats } from '@platform/messaging';
import {
  call,
  createTestDatabase,
  freePort,
  removeNatsNamespace,
  serviceEntry,
  startProcess,
  storeHarness,
  type ManagedProcess,
  type StoreHarness,
  type TestDatabase,
} from '@platform/testing';
import { DataKeyRewrapJob } from '../src/secrets/data-key-rewrap.job.js';
import { DataKeysService } from '../src/secrets/data-keys.service.js';
import { KeyRing, masterKeyId } from '../src/secrets/key-ring.js';
import type { DataKeyRow } from '../src/secrets/secret.record.js';
import { SecretsConfig } from '../src/secrets/secrets.config.js';
import { dataKeysRepository } from '../src/secrets/secrets.repository.js';

// AUTH_MODE=bench-static: the storage service alone, every request is this tenant (libs/common).
const TENANT = '00000000-0000-4000-8000-000000000001';
const ENVIRONMENT = '00000000-0000-4000-8000-000000000002';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Master key rotation: secrets written under key A are read back after a restart with key B
 * (and A as MASTER_KEY_PREVIOUS); the service re-wraps the data keys under B on start, after
 * which B alone reads them. The secret ciphertexts never change.
 */
describe('master key rotation with a real storage process', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const namespace = `rot-${randomBytes(4).toString('hex')}`;
  let database: TestDatabase;
  let admin: pg.Client;
  let nc: NatsConnection;
  let bus: Bus;
  let storage: ManagedProcess | undefined;
  let url = '';
  const output: string[] = [];

  const start = async (env: Record<string, string>) => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    storage = await startProcess({
      name: 'storage-rotation',
      entry: serviceEntry('storage'),
      env: {
        DATABASE_URL: database.url,
        NATS_NAMESPACE: namespace,
        AUTH_MODE: 'bench-static',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        HOST: '127.0.0.1',
        PORT: String(port),
        ...env,
      },
      healthUrl: `${url}/actuator/health`,
      onLine: (line) => output.push(line),
    });
  };

  const dataKeys = async () =>
    (await admin.query(`select master_key_id, encode(wrapped_key, 'hex') as wrapped from storage.data_keys where tenant_id = $1`, [TENANT])).rows as {
      master_key_id: string;
      wrapped: string;
    }[];
  const ciphertexts = async () =>
    (await admin.query(`select name, encode(ciphertext, 'hex') as c from storage.secrets where tenant_id = $1 order by name`, [TENANT])).rows as {
      name: string;
      c: string;
    }[];
  const resolve = (names: string[]) =>
    bus.request(
      StorageSubjects.secretsResolve,
      { names, purpose: 'run:execution:rotation-test' },
      { requestId: randomUUID(), tenantId: TENANT, environmentId: ENVIRONMENT, actor: 'test' },
    );

  beforeAll(async () => {
    database = await createTestDatabase('storage_rotation');
    admin = new pg.Client(database.settings.admin);
    await admin.connect();
    configureNamespace(namespace);
    nc = await connectNats({ url: process.env.NATS_URL || 'nats://127.0.0.1:4222', name: 'storage-rotation-test' });
    bus = new Bus(nc);
  }, 60_000);

  afterAll(async () => {
    await storage?.stop();
    await nc?.close();
    await admin?.end();
    await database?.drop();
    await removeNatsNamespace(namespace);
    configureNamespace('');
  });

  it('reads secrets written under the old master key and re-wraps the data keys under the new one', async () => {
    await start({ MASTER_KEY: keyA.toString('base64') });
    for (const [name, value] of [
      ['STRIPE_KEY', 'sk_live_rotation_value_1'],
      ['DB_PASSWORD', 'pässwörd-🔑-2'],
    ]) {
      const created = await call(url, '/storage/secrets', { body: { name, value } });
      expect(created.status).toBe(201);
    }
    expect((await dataKeys()).map((k) => k.master_key_id)).toEqual([masterKeyId(keyA)]);
    const before = await ciphertexts();
    const [wrappedBefore] = await dataKeys();
    await storage!.stop();

    // B alone cannot read what A wrapped: the error says so, and carries no value.
    await start({ MASTER_KEY: keyB.toString('base64') });
    await expect(resolve(['STRIPE_KEY'])).rejects.toThrow();
    await storage!.stop();

    // Another tenant's data key under A, damaged (its tag zeroed): it must not stop the re-wrap of the others.
    const damaged = randomUUID();
    await admin.query(
      `insert into storage.data_keys (tenant_id, environment_id, id, wrap_iv, wrapped_key, wrap_tag, master_key_id, kek_version)
        select $2, environment_id, gen_random_uuid(), wrap_iv, wrapped_key, decode(repeat('00', 16), 'hex'), master_key_id, kek_version
          from storage.data_keys where tenant_id = $1`,
      [TENANT, damaged],
    );

    await start({ MASTER_KEY: keyB.toString('base64'), MASTER_KEY_PREVIOUS: keyA.toString('base64') });
    expect(await resolve(['STRIPE_KEY', 'DB_PASSWORD', 'MISSING'])).toEqual({
      values: { STRIPE_KEY: 'sk_live_rotation_value_1', DB_PASSWORD: 'pässwörd-🔑-2' },
      missing: ['MISSING'],
    });
    // The re-wrap runs at start-up: the data key now names B, its wrapping changed, the secrets did not.
    for (let i = 0; i < 50 && (await dataKeys())[0].master_key_id !== masterKeyId(keyB); i++) await sleep(100);
    const [wrappedAfter] = await dataKeys();
    expect(wrappedAfter.master_key_id).toBe(masterKeyId(keyB));
    expect(wrappedAfter.wrapped).not.toBe(wrappedBefore.wrapped);
    expect(await ciphertexts()).toEqual(before);
    // The damaged key stays as it was, marked so that later passes leave it, and the log says why.
    expect(
      (await admin.query(`select master_key_id, rewrap_error, rewrap_failed_at is not null as marked from storage.data_keys where tenant_id = $1`, [damaged]))
        .rows,
    ).toEqual([
      { master_key_id: masterKeyId(keyA), rewrap_error: 'data key could not be decrypted (wrong key, or the data was altered or moved)', marked: true },
    ]);
    for (let i = 0; i < 50 && !output.join('\n').includes('could not be opened'); i++) await sleep(100);
    expect(output.join('\n')).toContain('1 data key(s) could not be opened under the master key they name');
    await storage!.stop();

    // Once re-wrapped, the old key is no longer needed.
    await start({ MASTER_KEY: keyB.toString('base64') });
    expect((await resolve(['DB_PASSWORD'])).values).toEqual({ DB_PASSWORD: 'pässwörd-🔑-2' });
    const reads = await admin.query(
      `select secret_name, purpose, actor from storage.secret_access_log where tenant_id = $1 and action = 'read' order by created_at`,
      [TENANT],
    );
    expect(reads.rows).toContainEqual({ secret_name: 'DB_PASSWORD', purpose: 'run:execution:rotation-test', actor: 'test' });
    expect(output.join('\n')).not.toMatch(/sk_live_rotation_value_1|pässwörd/);
  }, 120_000);

  it('refuses to start with a malformed MASTER_KEY_PREVIOUS, saying which setting is wrong', async () => {
    await storage?.stop();
    await expect(start({ MASTER_KEY: keyB.toString('base64'), MASTER_KEY_PREVIOUS: 'c2hvcnQ=' })).rejects.toThrow(
      /MASTER_KEY_PREVIOUS: entry 1 must be 32 bytes/,
    );
  }, 60_000);
});

/**
 * The re-wrap job's bound on damaged data keys, in-process on the real schema: a key that does
 * not open is marked in the batch that finds it and left out of every later scan, so damaged keys
 * (more than a batch of them, sorted first) never hold back the others, and are not tried again
 * until an operator clears the mark.
 */
describe('re-wrap job: damaged data keys × passes → marked once, walked past, tried again once restored and cleared', () => {
  const keyA = randomBytes(32);
  const keyB = randomBytes(32);
  const underA = new DataKeysService(new KeyRing(keyA));
  const rotating = new DataKeysService(new KeyRing(keyB, [keyA]));
  /** More than the job's batch of 200. */
  const DAMAGED = 250;
  let h: StoreHarness;
  let job: DataKeyRewrapJob;

  beforeAll(async () => {
    h = await storeHarness(['storage'], 'storage_rewrap');
    job = new DataKeyRewrapJob(h.systemDb, rotating, new SecretsConfig());
  }, 60_000);

  afterAll(async () => {
    await h?.close();
  });

  const insert = (row: DataKeyRow) => h.systemDb.run('test: a data key', (m) => dataKeysRepository.insert(m, row));
  /** A tenant id that sorts before (0…) or after (f…) every random one: the scan orders by tenant. */
  const tenantId = (first: '00000000' | 'ffffffff') => `${first}${randomUUID().slice(8)}`;
  const marks = async () =>
    (
      await h.admin.query<{ id: string; master_key_id: string; failed_at: string | null; rewrap_error: string | null }>(
        `select id, master_key_id, rewrap_failed_at::text as failed_at, rewrap_error from storage.data_keys order by tenant_id, id`,
      )
    ).rows;

  it('re-wraps every good key in one pass past more damaged keys than a batch, marks each damaged one once, and retries a restored one', async () => {
    // Damaged keys first in the scan's order: their tags are zeroed, so none opens under A.
    let restorable: DataKeyRow | undefined;
    for (let i = 0; i < DAMAGED; i++) {
      const good = underA.wrap(tenantId('00000000'), randomUUID(), randomUUID(), randomBytes(32));
      restorable ??= good;
      await insert({ ...good, wrap_tag: Buffer.alloc(16) });
    }
    const goodIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const row = underA.wrap(tenantId('ffffffff'), randomUUID(), randomUUID(), randomBytes(32));
      await insert(row);
      goodIds.push(row.id);
    }

    expect(await job.run()).toEqual({ rewrapped: 3, failed: DAMAGED, markedBefore: 0, unreadable: 0 });
    const first = await marks();
    const isGood = (k: { id: string }) => goodIds.includes(k.id);
    expect(first.filter(isGood)).toEqual(goodIds.map(() => expect.objectContaining({ master_key_id: masterKeyId(keyB), failed_at: null, rewrap_error: null })));
    const damaged = first.filter((k) => !isGood(k));
    expect(damaged).toHaveLength(DAMAGED);
    for (const k of damaged) {
      expect(k).toEqual({
        id: k.id,
        master_key_id: masterKeyId(keyA),
        failed_at: expect.any(String),
        rewrap_error: 'data key could not be decrypted (wrong key, or the data was altered or moved)',
      });
    }
    // Each key opens under B: the re-wrap kept its value.
    for (const row of await h.systemDb.run('test: read back', (m) =>
      m.query<DataKeyRow[]>(`select * from storage.data_keys where id = any($1::uuid[])`, [goodIds]),
    ))
      expect(() => new DataKeysService(new KeyRing(keyB)).unwrap(row)).not.toThrow();

    // A second pass takes none of them again: nothing counted as newly failed, the marks unchanged.
    expect(await job.run()).toEqual({ rewrapped: 0, failed: 0, markedBefore: DAMAGED, unreadable: 0 });
    expect(await marks()).toEqual(first);

    // An operator restores one key from a backup and clears its mark, as docs/configuration.md says: the next pass re-wraps it.
    await h.admin.query(`update storage.data_keys set wrap_tag = $3, rewrap_failed_at = null where tenant_id = $1 and id = $2`, [
      restorable!.tenant_id,
      restorable!.id,
      restorable!.wrap_tag,
    ]);
    expect(await job.run()).toEqual({ rewrapped: 1, failed: 0, markedBefore: DAMAGED - 1, unreadable: 0 });
    expect((await marks()).find((k) => k.id === restorable!.id)).toMatchObject({ master_key_id: masterKeyId(keyB), failed_at: null, rewrap_error: null });
  }, 120_000);
});
