import { randomBytes, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EntityManager } from 'typeorm';
import type { TenantContext } from '@platform/db';
import {
  Bus,
  TASK_OUTCOMES_QUEUE,
  configureNamespace,
  connectNats,
  ensureWorkQueue,
  namespacedQueue,
  removeNamespaceStreams,
  type Envelope,
  type TaskOutcomeItem,
} from '@platform/messaging';
import { storeHarness, type StoreHarness } from '@platform/testing';
import { loadTaskConfig } from '../src/config/task.config.js';
import { OutboxReconcilerJob } from '../src/tasks/outbox-reconciler.job.js';
import { OutcomePublisher } from '../src/tasks/outcome-publisher.js';
import type { TaskRow } from '../src/tasks/task.record.js';
import { hotPath, linksRepository, tasksRepository } from '../src/tasks/tasks.repository.js';
import { arrangeTask, otherTenant, readTask, type TaskArrangement } from './task-rows.js';

const ESCALATE_TO = randomUUID();

/**
 * The store tier of what happens to a task from outside a request: deadlines (expiry and
 * escalation, the system role across tenants), the outcome outbox, the execution watch, and a
 * signed link's single use. Real PostgreSQL with the real migrations; each row checked on the
 * table read back as the admin.
 */
describe('tasks store: deadlines, outbox, watch and links', () => {
  let h: StoreHarness;

  beforeAll(async () => {
    h = await storeHarness(['task'], 'task_deadlines');
  });

  afterAll(async () => {
    await h?.close();
  });

  const ids = (rows: TaskRow[], tenantId: string) =>
    rows
      .filter((r) => r.tenant_id === tenantId)
      .map((r) => r.id)
      .sort();

  const close = (d: Date | null, ms: number) => d !== null && Math.abs(d.getTime() - Date.now() - ms) < 5_000;

  describe('deadlines (ExpiryJob: lockDue, then expire or escalate, in one system transaction)', () => {
    it('lockDue: pending past its deadline → locked; not yet due, without a deadline or decided → left alone', async () => {
      const ctx = h.tenant();
      const due = [await arrangeTask(h.admin, ctx, { dueAt: 'past' }), await arrangeTask(h.admin, otherTenant(), { dueAt: 'past' })];
      for (const t of [{ dueAt: 'future' }, {}, { dueAt: 'past', status: 'completed' }, { dueAt: 'past', status: 'cancelled' }] as TaskArrangement[])
        await arrangeTask(h.admin, ctx, t);

      const locked = await h.systemDb.run('due', (m) => tasksRepository.lockDue(m, 1000));

      expect(ids(locked, ctx.tenantId)).toEqual([due[0]]);
      expect(locked.map((r) => r.id)).toContain(due[1]);
    });

    it.each<[string, string, (m: EntityManager, t: TaskRow) => Promise<TaskRow>, Partial<TaskRow>]>([
      [
        'deadline passed, on_expiry reject',
        'expired: decision reject, data {}, completed_at, the outbox flag',
        (m, t) => tasksRepository.expire(m, t.tenant_id, t.id, 'reject'),
        { status: 'expired', decision: 'reject', data: {}, outcome_pending: true },
      ],
      [
        'deadline passed, on_expiry fail',
        'expired: no decision, completed_at, the outbox flag',
        (m, t) => tasksRepository.expire(m, t.tenant_id, t.id, null),
        { status: 'expired', decision: null, data: {}, outcome_pending: true },
      ],
      [
        'deadline passed, on_expiry escalate',
        'pending: reassigned, the deadline extended, escalated, no outcome',
        (m, t) => tasksRepository.escalate(m, t.tenant_id, t.id, 'team', ESCALATE_TO, 600),
        { status: 'pending', assignee_type: 'team', assignee_id: ESCALATE_TO, escalated: true, decision: null, outcome_pending: false },
      ],
    ])('pending × %s → %s', async (_event, _to, act, expected) => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, { dueAt: 'past' });

      const answered = await h.systemDb.run('expire', async (m) => {
        const [task] = (await tasksRepository.lockDue(m, 1000)).filter((t) => t.id === id);
        return act(m, task);
      });

      const row = await readTask(h.admin, id);
      expect(answered).toEqual(row);
      expect(row).toMatchObject(expected);
      if (row!.status === 'expired') expect(close(row!.completed_at, 0)).toBe(true);
      else expect(close(row!.due_at, 600_000)).toBe(true);
    });

    it('pending, locked by the expiry × a completion meanwhile → expired: the completion waits, then finds it decided and writes nothing', async () => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, { dueAt: 'past' });
      let completion: Promise<TaskRow | undefined> | undefined;

      await h.systemDb.run('expire', async (m) => {
        expect((await tasksRepository.lockDue(m, 1000)).map((t) => t.id)).toContain(id);
        completion = hotPath.complete(h.tenantDb, ctx, id, { decision: 'approve', data: {}, completedBy: 'user:1' });
        await sleep(200);
        await tasksRepository.expire(m, ctx.tenantId, id, 'reject');
      });

      expect(await completion).toBeUndefined();
      expect(await readTask(h.admin, id)).toMatchObject({ status: 'expired', decision: 'reject', completed_by: null });
    });

    it('pending, being completed × the expiry scans → completed: SKIP LOCKED passes it over, and once committed it is no longer due', async () => {
      const ctx = h.tenant();
      const id = await arrangeTask(h.admin, ctx, { dueAt: 'past' });

      await h.tenantDb.run(ctx, async (m) => {
        await hotPath.complete(h.tenantDb, ctx, id, { decision: 'approve', data: {}, completedBy: 'user:1' }, m);
        const locked = await h.systemDb.run('due', (s) => tasksRepository.lockDue(s, 1000));
        expect(locked.map((t) => t.id)).not.toContain(id);
      });

      expect((await h.systemDb.run('due', (s) => tasksRepository.lockDue(s, 1000))).map((t) => t.id)).not.toContain(id);
      expect(await readTask(h.admin, id)).toMatchObject({ status: 'completed', decision: 'approve' });
    });
  });

  describe('outcome outbox (OutcomePublisher and the outbox reconciler, system role)', () => {
    it('undelivered: decided with the flag past the grace → listed; within the grace, delivered or pending → not', async () => {
      const ctx = h.tenant();
      const stale = [
        await arrangeTask(h.admin, ctx, { status: 'completed', outcomePending: true, completedAgo: 60 }),
        await arrangeTask(h.admin, ctx, { status: 'expired', outcomePending: true, completedAgo: 60 }),
      ];
      await arrangeTask(h.admin, ctx, { status: 'completed', outcomePending: true, completedAgo: 0 });
      await arrangeTask(h.admin, ctx, { status: 'completed', outcomePending: false, completedAgo: 60 });
      await arrangeTask(h.admin, ctx, {});

      const rows = await h.systemDb.run('undelivered', (m) => tasksRepository.undelivered(m, 10_000, 1000));

      expect(ids(rows, ctx.tenantId)).toEqual([...stale].sort());
    });

    it('outcomeDelivered: the flag of the delivered outcomes → cleared; other tasks, flagged or not, unchanged', async () => {
      const ctx = h.tenant();
      const delivered = await arrangeTask(h.admin, ctx, { status: 'completed', outcomePending: true });
      const other = await arrangeTask(h.admin, ctx, { status: 'expired', outcomePending: true });
      const before = await readTask(h.admin, other);

      await h.systemDb.run('delivered', (m) => tasksRepository.outcomeDelivered(m, [{ tenantId: ctx.tenantId, id: delivered }]));

      expect(await readTask(h.admin, delivered)).toMatchObject({ status: 'completed', outcome_pending: false, decision: 'approve' });
      expect(await readTask(h.admin, other)).toEqual(before);
    });
  });

  describe('outcome outbox bounds (OutboxReconcilerJob passes on real NATS: a publish refused for good, NATS unreachable)', () => {
    const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    // This run's own streams: parallel runs never read each other's outcomes.
    const NAMESPACE = `task-outbox-${randomBytes(4).toString('hex')}`;
    let nc: NatsConnection;
    let down: NatsConnection;
    /** A pass publishing through a working connection, and one through a closed connection (NATS unreachable). */
    let working: { job: OutboxReconcilerJob; publisher: OutcomePublisher };
    let failing: { job: OutboxReconcilerJob; publisher: OutcomePublisher };

    const reconciler = (conn: NatsConnection) => {
      const publisher = new OutcomePublisher(conn, new Bus(conn), h.systemDb);
      return { job: new OutboxReconcilerJob(h.systemDb, publisher, loadTaskConfig({})), publisher };
    };

    /** The task ids whose outcome reached this run's TASK_OUTCOMES stream (acked: the work queue forgets them). */
    async function published(): Promise<string[]> {
      const spec = namespacedQueue(TASK_OUTCOMES_QUEUE);
      const consumer = await jetstream(nc).consumers.get(spec.stream, spec.consumer);
      const out: string[] = [];
      for (;;) {
        const batch = await consumer.fetch({ max_messages: 100, expires: 1000 });
        let n = 0;
        for await (const msg of batch) {
          n++;
          out.push(msg.json<Envelope<TaskOutcomeItem>>().data.taskId);
          msg.ack();
        }
        if (n === 0) return out;
      }
    }

    /** A decided task whose outcome waits in the outbox, decided `ago` seconds ago. */
    const arrangeDecided = (ctx: TenantContext, ago: number) => arrangeTask(h.admin, ctx, { status: 'completed', outcomePending: true, completedAgo: ago });

    const outbox = async (id: string) => {
      const row = (await readTask(h.admin, id))!;
      return { pending: row.outcome_pending, attempts: row.outcome_attempts, error: row.outcome_error, failed: row.outcome_failed_at !== null };
    };

    beforeAll(async () => {
      configureNamespace(NAMESPACE);
      nc = await connectNats({ url: NATS_URL, name: 'task-outbox-test' });
      await ensureWorkQueue(nc, TASK_OUTCOMES_QUEUE);
      down = await connectNats({ url: NATS_URL, name: 'task-outbox-test-down' });
      await down.close();
      working = reconciler(nc);
      failing = reconciler(down);
    });

    afterAll(async () => {
      await Promise.all([working?.publisher.onModuleDestroy(), failing?.publisher.onModuleDestroy()]);
      if (nc) {
        await removeNamespaceStreams(nc, NAMESPACE).catch(() => undefined);
        await nc.close();
      }
    });

    it('an outcome NATS refuses for good (over max_payload) × a pass → failed after one attempt, out of the scan; the others of the pass published', async () => {
      const ctx = h.tenant();
      const refused = await arrangeDecided(ctx, 60);
      await h.admin.query(`update task.tasks set data = jsonb_build_object('big', repeat('x', $2::int)) where id = $1`, [refused, nc.info!.max_payload]);
      const fine = [await arrangeDecided(ctx, 90), await arrangeDecided(ctx, 30)];

      await working.job.runOnce();
      await working.publisher.onModuleDestroy();

      const row = await outbox(refused);
      expect(row).toEqual({ pending: false, attempts: 1, error: expect.stringContaining('max_payload'), failed: true });
      expect(row.error!.length).toBeLessThanOrEqual(300);
      expect(row.error).not.toContain('xxxx');
      for (const id of fine) expect(await outbox(id)).toEqual({ pending: false, attempts: 0, error: null, failed: false });
      expect(ids(await h.systemDb.run('undelivered', (m) => tasksRepository.undelivered(m, 0, 1000)), ctx.tenantId)).toEqual([]);
      await working.job.runOnce();
      expect(await outbox(refused)).toEqual(row);
      const out = await published();
      expect(out.filter((id) => [refused, ...fine].includes(id)).sort()).toEqual([...fine].sort());
    });

    it('an outcome decided past TASK_OUTBOX_GIVE_UP_MS (24 h) × NATS unreachable → failed with the error, and not tried again even once NATS is back', async () => {
      const ctx = h.tenant();
      const old = await arrangeDecided(ctx, 2 * 86_400);

      await failing.job.runOnce();

      const row = await outbox(old);
      expect(row).toEqual({ pending: false, attempts: 1, error: expect.any(String), failed: true });
      await failing.job.runOnce();
      await working.job.runOnce();
      await working.publisher.onModuleDestroy();
      expect(await outbox(old)).toEqual(row);
      expect(await published()).not.toContain(old);
    });

    it('a young outcome × NATS unreachable, twice → kept flagged with 2 attempts and the error; published once NATS is back', async () => {
      const ctx = h.tenant();
      const young = await arrangeDecided(ctx, 60);

      await failing.job.runOnce();
      await failing.job.runOnce();

      expect(await outbox(young)).toEqual({ pending: true, attempts: 2, error: expect.any(String), failed: false });
      await working.job.runOnce();
      await working.publisher.onModuleDestroy();
      expect(await outbox(young)).toMatchObject({ pending: false, attempts: 2, failed: false });
      expect(await published()).toContain(young);
    });
  });

  describe('execution watch (claimUnchecked, system role)', () => {
    it('pending execution tasks not checked for the age → checked now and listed; recent, agent or decided tasks → unchanged', async () => {
      const ctx = h.tenant();
      const unchecked = await arrangeTask(h.admin, ctx, { createdAgo: 120 });
      const untouched = [
        await arrangeTask(h.admin, ctx, { createdAgo: 0 }),
        await arrangeTask(h.admin, ctx, { createdAgo: 120, agent: true }),
        await arrangeTask(h.admin, ctx, { createdAgo: 120, status: 'completed' }),
      ];
      const before = [];
      for (const id of untouched) before.push(await readTask(h.admin, id));

      const rows = await h.systemDb.run('watch', (m) => tasksRepository.claimUnchecked(m, 60_000, 1000));

      expect(ids(rows, ctx.tenantId)).toEqual([unchecked]);
      expect(close((await readTask(h.admin, unchecked))!.checked_at, 0)).toBe(true);
      for (const [i, id] of untouched.entries()) expect(await readTask(h.admin, id)).toEqual(before[i]);
      // Checked now: the next pass leaves it for another age.
      expect(ids(await h.systemDb.run('watch', (m) => tasksRepository.claimUnchecked(m, 60_000, 1000)), ctx.tenantId)).toEqual([]);
    });
  });

  describe('signed links (linksRepository.use)', () => {
    async function arrangeLink(ctx: TenantContext): Promise<string> {
      const taskId = await arrangeTask(h.admin, ctx);
      const id = randomUUID();
      await h.tenantDb.run(ctx, (m) =>
        linksRepository.insert(m, {
          ...ctx,
          scopeId: null,
          id,
          taskId,
          decisions: ['approve', 'reject'],
          expiresAt: new Date(Date.now() + 3600_000),
          createdBy: 'user:1',
        }),
      );
      return id;
    }
    const readLink = async (id: string) => (await h.admin.query<{ used_at: Date | null }>(`select used_at from task.task_links where id = $1`, [id])).rows[0];

    it.each<[string, string, boolean, 'own' | 'other tenant']>([
      ['unused', 'used: used_at now, true', false, 'own'],
      ['used', 'used: false, used_at unchanged', true, 'own'],
      ['unused', "unused: false in another tenant's context, nothing written", false, 'other tenant'],
    ])('%s × use → %s', async (_from, _to, usedBefore, who) => {
      const ctx = h.tenant();
      const id = await arrangeLink(ctx);
      if (usedBefore) await h.admin.query(`update task.task_links set used_at = now() - interval '1 hour' where id = $1`, [id]);
      const before = await readLink(id);
      const first = who === 'own' && !usedBefore;

      const used = await h.tenantDb.run(who === 'own' ? ctx : otherTenant(), (m) => linksRepository.use(m, id));

      expect(used).toBe(first);
      if (first) expect(close((await readLink(id)).used_at, 0)).toBe(true);
      else expect(await readLink(id)).toEqual(before);
    });
  });
});
