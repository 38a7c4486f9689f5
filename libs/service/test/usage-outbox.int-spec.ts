import 'reflect-metadata';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { DataSource } from 'typeorm';
import {
  SystemDb,
  TenantDb,
  createDataSource,
  databaseSettings,
  dropDatabase,
  findTenantTablesWithoutRls,
  setupDatabase,
  withDatabase,
  type DatabaseSettings,
} from '@platform/db';
import {
  USAGE_BATCHES_QUEUE,
  USAGE_FACTS_QUEUE,
  UsageMeter,
  configureNamespace,
  connectNats,
  ensureWorkQueue,
  namespacedQueue,
  removeNamespaceStreams,
  usageEventId,
  type Envelope,
  type UsageFact,
  type UsageFactBatch,
} from '@platform/messaging';
import { UsageOutbox, usageOutboxFailuresMigration, usageOutboxMigration } from '../src/index.js';
import { usageOutboxRepository } from '../src/usage/usage-outbox.repository.js';

const SCHEMA = 'usage_outbox_test';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
// This run's own stream (<NAMESPACE>_SUBSCRIPTION_USAGE): parallel runs never read each other's facts.
const NAMESPACE = `outbox-${randomBytes(4).toString('hex')}`;

const tenantA = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
const tenantB = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };

interface Delivered {
  msgId: string | undefined;
  eventId: string;
  tenantId: string | undefined;
  quantity: number;
}

describe('usage outbox on real PostgreSQL and JetStream', () => {
  let settings: DatabaseSettings;
  let app: DataSource;
  let system: SystemDb;
  let db: TenantDb;
  let nc: NatsConnection;
  let down: NatsConnection;
  /** Publishes through a closed connection: every publish fails, as with NATS unreachable. */
  let failing: UsageOutbox;
  /** Publishes through a working connection (the relay of this or another replica). */
  let working: UsageOutbox;
  const options = { schema: SCHEMA, graceMs: 0, giveUpMs: 3_600_000 };

  const rows = async (): Promise<string[]> =>
    (await system.run('test: outbox rows', (m) => m.query<{ event_id: string }[]>(`select event_id from ${SCHEMA}.usage_outbox order by event_id`))).map(
      (r) => r.event_id,
    );

  /** Takes every fact from this run's stream (acked: a work queue then forgets them). */
  async function drain(): Promise<Delivered[]> {
    const spec = namespacedQueue(USAGE_FACTS_QUEUE);
    const consumer = await jetstream(nc).consumers.get(spec.stream, spec.consumer);
    const out: Delivered[] = [];
    for (;;) {
      const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
      let n = 0;
      for await (const msg of batch) {
        n++;
        const item = msg.json<Envelope<UsageFact>>();
        out.push({ msgId: msg.headers?.get('Nats-Msg-Id'), eventId: item.data.eventId, tenantId: item.context.tenantId, quantity: item.data.quantity });
        msg.ack();
      }
      if (n === 0) return out;
    }
  }

  beforeAll(async () => {
    configureNamespace(NAMESPACE);
    settings = withDatabase(databaseSettings(process.env), `platform_outbox_${randomBytes(4).toString('hex')}`);
    await setupDatabase({
      settings,
      services: [{ service: 'outbox', schema: SCHEMA, migrations: [usageOutboxMigration(SCHEMA), usageOutboxFailuresMigration(SCHEMA)] }],
    });
    app = createDataSource({ connection: settings.app, schema: SCHEMA, applicationName: 'outbox-test', poolSize: 2 });
    await app.initialize();
    db = new TenantDb(app);
    system = new SystemDb(
      () => createDataSource({ connection: settings.system, schema: SCHEMA, applicationName: 'outbox-test-system', poolSize: 2 }),
      () => undefined,
    );
    nc = await connectNats({ url: NATS_URL, name: 'usage-outbox-test' });
    await ensureWorkQueue(nc, USAGE_FACTS_QUEUE);
    await ensureWorkQueue(nc, USAGE_BATCHES_QUEUE);
    down = await connectNats({ url: NATS_URL, name: 'usage-outbox-test-down' });
    await down.close();
    failing = new UsageOutbox(new UsageMeter(down), db, system, options);
    working = new UsageOutbox(new UsageMeter(nc), db, system, options);
  });

  afterAll(async () => {
    await Promise.all([failing?.onModuleDestroy(), working?.onModuleDestroy()]);
    if (nc) {
      await removeNamespaceStreams(nc, NAMESPACE).catch(() => undefined);
      await nc.close();
    }
    await system?.close();
    if (app?.isInitialized) await app.destroy();
    if (settings) await dropDatabase(settings);
  });

  it('keeps the outbox under row-level security, enabled and forced', async () => {
    expect(await findTenantTablesWithoutRls(app, [SCHEMA])).toEqual([]);
  });

  it('delivers through the relay what was written while publishing failed, one message id per fact', async () => {
    const facts = [1, 2, 3].map((n) => failing.fact(tenantA, { metric: 'runs', quantity: n, eventId: usageEventId('test-run', String(n), NAMESPACE) }));
    await db.run(tenantA, (m) => failing.add(m, facts));
    failing.publish(facts);
    await new Promise((r) => setTimeout(r, 300));
    expect(await rows()).toEqual(facts.map((f) => f.fact.eventId).sort());

    expect(await working.relay()).toBe(3);
    expect(await rows()).toEqual([]);
    // A fact published but whose row survived (a crash before the delete) goes out again: the same message id, dropped by the stream.
    await db.run(tenantA, (m) => working.add(m, [facts[0]]));
    expect(await working.relay()).toBe(1);
    expect(await working.relay()).toBe(0);

    const delivered = await drain();
    expect(delivered.map((d) => d.eventId).sort()).toEqual(facts.map((f) => f.fact.eventId).sort());
    expect(delivered.every((d) => d.msgId === d.eventId && d.tenantId === tenantA.tenantId)).toBe(true);
    expect(delivered.map((d) => d.quantity).sort()).toEqual([1, 2, 3]);
  });

  it('never publishes the facts of a rolled-back transaction', async () => {
    const fact = failing.fact(tenantA, { metric: 'notifications', quantity: 1 });
    await expect(
      db.run(tenantA, async (m) => {
        await working.add(m, [fact]);
        throw new Error('the business change failed');
      }),
    ).rejects.toThrow('the business change failed');
    expect(await rows()).toEqual([]);
    expect(await working.relay()).toBe(0);
    expect(await drain()).toEqual([]);
  });

  it('publishes at once after the commit and then deletes the row', async () => {
    await working.record(tenantB, { metric: 'ai_tokens', quantity: 42 });
    for (let i = 0; i < 200 && (await rows()).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await rows()).toEqual([]);
    expect(await drain()).toEqual([expect.objectContaining({ tenantId: tenantB.tenantId, quantity: 42 })]);
  });

  it('sends the facts of one tenant given in one turn as one batch, a lone fact alone, and deletes every row once stored', async () => {
    const batched = [5, 6, 7].map((n) => working.fact(tenantA, { metric: 'runs', quantity: n }));
    const alone = working.fact(tenantB, { metric: 'runs', quantity: 9 });
    await db.run(tenantA, (m) => working.add(m, batched));
    await db.run(tenantB, (m) => working.add(m, [alone]));
    working.publish(batched.slice(0, 2));
    working.publish([batched[2], alone]);
    for (let i = 0; i < 200 && (await rows()).length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await rows()).toEqual([]);

    const spec = namespacedQueue(USAGE_BATCHES_QUEUE);
    const consumer = await jetstream(nc).consumers.get(spec.stream, spec.consumer);
    const batches: Array<{ msgId: string | undefined; tenantId: string | undefined; facts: UsageFact[] }> = [];
    for await (const msg of await consumer.fetch({ max_messages: 10, expires: 1000 })) {
      const item = msg.json<Envelope<UsageFactBatch>>();
      batches.push({ msgId: msg.headers?.get('Nats-Msg-Id'), tenantId: item.context.tenantId, facts: item.data.facts });
      msg.ack();
    }
    expect(batches).toEqual([
      {
        msgId: usageEventId('batch', ...batched.map((f) => f.fact.eventId)),
        tenantId: tenantA.tenantId,
        facts: batched.map((f) => f.fact),
      },
    ]);
    expect(await drain()).toEqual([{ msgId: alone.fact.eventId, eventId: alone.fact.eventId, tenantId: tenantB.tenantId, quantity: 9 }]);
  });

  it('shows a tenant its own facts only', async () => {
    await db.run(tenantA, (m) => failing.add(m, [failing.fact(tenantA, { metric: 'seats', quantity: 1 })]));
    const seen = async (ctx: typeof tenantA) => db.run(ctx, (m) => m.query<{ n: number }[]>(`select count(*)::int as n from ${SCHEMA}.usage_outbox`));
    expect((await seen(tenantA))[0].n).toBe(1);
    expect((await seen(tenantB))[0].n).toBe(0);
    await expect(db.run(tenantB, (m) => failing.add(m, [failing.fact(tenantA, { metric: 'seats', quantity: 1 })]))).rejects.toThrow(/row-level security/);
    expect(await working.relay()).toBe(1);
    expect(await drain()).toHaveLength(1);
  });
  describe('bounded retries: a failed publish counts, a refused or too old fact is given up and kept', () => {
    interface OutboxState {
      event_id: string;
      publish_attempts: number;
      publish_error: string | null;
      publish_failed_at: Date | null;
    }
    const state = async (tenantId: string): Promise<OutboxState[]> =>
      system.run('test: outbox state', (m) =>
        m.query<OutboxState[]>(
          `select event_id, publish_attempts, publish_error, publish_failed_at from ${SCHEMA}.usage_outbox where tenant_id = $1 order by event_id`,
          [tenantId],
        ),
      );
    const backlog = () => system.run('test: backlog', (m) => usageOutboxRepository.backlog(m, SCHEMA));

    /** A fact written `ageSeconds` ago; `actorBytes` makes its envelope as large as wanted. */
    async function arrange(tenant: typeof tenantA, ageSeconds = 0, actorBytes = 0): Promise<string> {
      const fact = working.fact(tenant, { metric: 'runs', quantity: 1 }, actorBytes ? { actor: 'a'.repeat(actorBytes) } : {});
      await db.run(tenant, (m) => working.add(m, [fact]));
      await system.run('test: age', (m) =>
        m.query(`update ${SCHEMA}.usage_outbox set created_at = now() - make_interval(secs => $2) where event_id = $1`, [fact.fact.eventId, ageSeconds]),
      );
      return fact.fact.eventId;
    }

    it('a fact NATS refuses for good (over max_payload) × a relay pass → failed after one attempt, never taken again; the others in the pass published', async () => {
      const tenant = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
      const before = await backlog();
      const refused = await arrange(tenant, 10, nc.info!.max_payload + 1);
      const fine = [await arrange(tenant, 20), await arrange(tenant, 5)];

      expect(await working.relay()).toBe(2);

      const [row] = await state(tenant.tenantId);
      expect(row).toMatchObject({ event_id: refused, publish_attempts: 1, publish_error: expect.stringContaining('max_payload') });
      expect(row.publish_failed_at).toBeInstanceOf(Date);
      expect(row.publish_error!.length).toBeLessThanOrEqual(300);
      expect(row.publish_error).not.toContain('aaaa');
      // Out of the scan: a second pass neither tries nor counts it; out of the backlog, into the failed gauge.
      expect(await working.relay()).toBe(0);
      expect(await state(tenant.tenantId)).toEqual([row]);
      expect(await backlog()).toEqual({ facts: before.facts, oldestSeconds: expect.any(Number), failed: before.failed + 1 });
      expect((await drain()).map((d) => d.eventId).sort()).toEqual([...fine].sort());
    });

    it('a fact past USAGE_OUTBOX_GIVE_UP_MS × NATS unreachable → failed with the error, kept, and not retried even once NATS is back', async () => {
      const tenant = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
      const old = await arrange(tenant, 2 * 3600);

      expect(await failing.relay()).toBe(0);

      const [row] = await state(tenant.tenantId);
      expect(row).toMatchObject({ event_id: old, publish_attempts: 1, publish_error: expect.any(String) });
      expect(row.publish_failed_at).toBeInstanceOf(Date);
      expect(await failing.relay()).toBe(0);
      expect(await working.relay()).toBe(0);
      expect(await state(tenant.tenantId)).toEqual([row]);
      expect(await drain()).toEqual([]);
    });

    it('a young fact × NATS unreachable, twice → kept for the next pass with 2 attempts and the error; published once NATS is back', async () => {
      const tenant = { tenantId: randomUUID(), environmentId: randomUUID(), scopeId: null };
      const young = await arrange(tenant, 60);

      expect(await failing.relay()).toBe(0);
      expect(await failing.relay()).toBe(0);

      expect(await state(tenant.tenantId)).toEqual([{ event_id: young, publish_attempts: 2, publish_error: expect.any(String), publish_failed_at: null }]);
      expect(await working.relay()).toBe(1);
      expect(await state(tenant.tenantId)).toEqual([]);
      expect((await drain()).map((d) => d.eventId)).toEqual([young]);
    });
  });
});
