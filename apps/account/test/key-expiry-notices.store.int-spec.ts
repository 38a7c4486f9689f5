import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { NatsConnection } from '@nats-io/transport-node';
import { KEY_EXPIRY_NOTICES_QUEUE, configureNamespace, connectNats, startWorker, type ApiKeyExpiringEvent, type Worker } from '@platform/messaging';
import { eventually, removeNatsNamespace, storeHarness, type StoreHarness } from '@platform/testing';
import { AccountConfig } from '../src/config/account.config.js';
import { KeyExpiryNoticeJob } from '../src/api-keys/key-expiry-notice.job.js';

const DAY_MS = 86_400_000;

/**
 * The expiry notice job's retries end: on the real schema, as the system role, with a real
 * JetStream queue. A publish that fails (a closed connection, as with NATS unreachable) is recorded
 * on the key, which the next pass takes again; once the key has expired its notice is moot, it is
 * no longer taken, and it is recorded as given up, once. A publish refused for one key holds back
 * none of the others of its batch.
 */
describe('API key expiry notices: publish failures × passes → retried until the key expires, then recorded', () => {
  const namespace = `notices-${randomBytes(4).toString('hex')}`;
  let h: StoreHarness;
  let nc: NatsConnection;
  let down: NatsConnection;
  let worker: Worker;
  /** Publishes through a working connection. */
  let working: KeyExpiryNoticeJob;
  /** Publishes through a closed connection: every publish fails, as with NATS unreachable. */
  let failing: KeyExpiryNoticeJob;
  const received: ApiKeyExpiringEvent[] = [];

  beforeAll(async () => {
    configureNamespace(namespace);
    h = await storeHarness(['account'], 'account_notices');
    const config = Object.assign(new AccountConfig(), { KEY_EXPIRY_NOTICE_DAYS: 7 });
    const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    nc = await connectNats({ url, name: 'key-notices-test' });
    down = await connectNats({ url, name: 'key-notices-test-down' });
    await down.close();
    working = new KeyExpiryNoticeJob(h.systemDb, nc, config);
    failing = new KeyExpiryNoticeJob(h.systemDb, down, config);
    // The working job makes the queue; its consumer collects what was published.
    await working.announce();
    worker = await startWorker<ApiKeyExpiringEvent>(nc, KEY_EXPIRY_NOTICES_QUEUE, ({ data }) => {
      received.push(data);
      return { ack: true };
    });
  }, 60_000);

  afterAll(async () => {
    await worker?.stop();
    await nc?.close();
    await h?.close();
    await removeNatsNamespace(namespace);
    configureNamespace('');
  });

  /** A tenant with an environment, and active keys expiring after the given times (one name may be given). */
  async function keys(expiresInMs: number[], name = (i: number) => `key-${i}`): Promise<string[]> {
    const tenantId = randomUUID();
    const environmentId = randomUUID();
    await h.admin.query(`insert into account.tenants (id, name) values ($1, 'notices')`, [tenantId]);
    await h.admin.query(`insert into account.environments (tenant_id, id, name, mode) values ($1, $2, 'production', 'live')`, [tenantId, environmentId]);
    const ids: string[] = [];
    for (const [i, ms] of expiresInMs.entries()) {
      const id = randomUUID();
      await h.admin.query(
        `insert into account.api_keys (tenant_id, environment_id, id, name, type, mode, scopes, prefix, key_hash, expires_at)
         values ($1, $2, $3, $4, 'tenant', 'live', '{data:read}', $5, $6, now() + $7 * interval '1 millisecond')`,
        [tenantId, environmentId, id, name(i), `pk_live_${i}`, randomBytes(32), ms],
      );
      ids.push(id);
    }
    return ids;
  }

  interface NoticeState {
    id: string;
    announced: boolean;
    attempts: number;
    error: string | null;
    given_up_at: string | null;
  }
  const states = async (ids: string[]): Promise<NoticeState[]> =>
    (
      await h.admin.query<NoticeState>(
        `select id, expiry_notice_at is not null as announced, expiry_notice_attempts as attempts, expiry_notice_error as error,
                expiry_notice_failed_at::text as given_up_at
           from account.api_keys where id = any($1::uuid[]) order by array_position($1::uuid[], id)`,
        [ids],
      )
    ).rows;
  const receivedFor = (ids: string[]) => received.filter((r) => ids.includes(r.keyId));

  it('keeps keys whose publish failed for the next pass, counting each attempt, and announces them once the bus works', async () => {
    const ids = await keys([2 * DAY_MS, 3 * DAY_MS]);
    const first = await failing.announce();
    expect(first.announced).toBe(0);
    expect(first.failed).toBeGreaterThanOrEqual(2);
    await failing.announce();
    for (const s of await states(ids))
      expect(s).toEqual({ id: s.id, announced: false, attempts: 2, error: expect.stringMatching(/closed/i), given_up_at: null });

    expect((await working.announce()).announced).toBeGreaterThanOrEqual(2);
    expect(await states(ids)).toEqual(ids.map((id) => ({ id, announced: true, attempts: 2, error: null, given_up_at: null })));
    await eventually('both notices', () => Promise.resolve(receivedFor(ids).length === 2 || undefined), 10_000);
    await working.announce();
    expect(
      receivedFor(ids)
        .map((r) => r.keyId)
        .sort(),
    ).toEqual([...ids].sort());
  }, 60_000);

  it('tries each failing key once per pass, past a full batch of them, and ends the pass', async () => {
    // More than the job's batch of 100, all failing: a pass that took failed keys again would never end.
    const ids = await keys(Array.from({ length: 130 }, (_, i) => DAY_MS + i * 1000));
    expect((await failing.announce()).failed).toBeGreaterThanOrEqual(130);
    expect(new Set((await states(ids)).map((s) => `${s.attempts} ${s.announced}`))).toEqual(new Set(['1 false']));
    expect((await working.announce()).announced).toBeGreaterThanOrEqual(130);
    expect(new Set((await states(ids)).map((s) => `${s.attempts} ${s.announced}`))).toEqual(new Set(['1 true']));
  }, 60_000);

  it('no longer takes a key that expired with its notice unsent, records it as given up once, and leaves an expired key never tried alone', async () => {
    const [tried, untried] = await keys([DAY_MS, DAY_MS]);
    // Only `tried` is in the window when the failing pass runs; `untried` is moved to the past first.
    await h.admin.query(`update account.api_keys set expires_at = now() - interval '1 hour' where id = $1`, [untried]);
    await failing.announce();
    expect((await states([tried]))[0]).toMatchObject({ attempts: 1, announced: false, given_up_at: null });

    // The key expires before any pass could publish its notice.
    await h.admin.query(`update account.api_keys set expires_at = now() - interval '1 second' where id = $1`, [tried]);
    const pass = await working.announce();
    expect(pass.givenUp).toBe(1);
    const [given] = await states([tried]);
    expect(given).toEqual({ id: tried, announced: false, attempts: 1, error: expect.stringMatching(/closed/i), given_up_at: expect.any(String) });
    // Never again: neither published nor given up a second time.
    expect(await working.announce()).toMatchObject({ givenUp: 0 });
    expect(await failing.announce()).toMatchObject({ givenUp: 0 });
    expect(await states([tried])).toEqual([given]);
    expect((await states([untried]))[0]).toMatchObject({ attempts: 0, announced: false, given_up_at: null });
    await working.announce();
    expect(receivedFor([tried, untried])).toEqual([]);
  }, 60_000);

  it('publishes the other keys of a batch when the bus refuses one of them, and records the refusal on that key only', async () => {
    // A name over NATS max_payload (1 MiB by default): the bus refuses this key's notice, every time.
    const [refused, ...others] = await keys([DAY_MS, DAY_MS + 1000, DAY_MS + 2000], (i) => (i === 0 ? 'x'.repeat(2 * 1024 * 1024) : `key-${i}`));
    const pass = await working.announce();
    expect(pass).toMatchObject({ announced: 2, failed: 1 });
    expect(await states([refused, ...others])).toEqual([
      { id: refused, announced: false, attempts: 1, error: expect.any(String), given_up_at: null },
      ...others.map((id) => ({ id, announced: true, attempts: 0, error: null, given_up_at: null })),
    ]);
    await eventually('the other notices', () => Promise.resolve(receivedFor(others).length === 2 || undefined), 10_000);
    expect(receivedFor([refused])).toEqual([]);
  }, 60_000);
});
