import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import type { NatsConnection } from '@nats-io/transport-node';
import { Bus, StorageSubjects, configureNamespace, connectNats } from '@platform/messaging';
import { call, createTestDatabase, freePort, removeNatsNamespace, serviceEntry, startProcess, type ManagedProcess, type TestDatabase } from '@platform/testing';
import { masterKeyId } from '../src/secrets/key-ring.js';

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
    // The damaged key stays as it was, and the log says why.
    expect((await admin.query(`select master_key_id from storage.data_keys where tenant_id = $1`, [damaged])).rows).toEqual([
      { master_key_id: masterKeyId(keyA) },
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
