import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  call,
  createTenant,
  e2eEnvironment,
  eventually,
  processExited,
  processIds,
  serviceEntry,
  startProcess,
  withKey,
  type TestTenant,
} from '@platform/testing';
import { StandIn } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[]; next_cursor?: string | null };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

const TOTAL = 500;
const KILL_AFTER = 150;

describe('notification deliveries through a SIGKILL of the notification service', () => {
  let tenant: TestTenant;
  const teams = new StandIn();

  beforeAll(async () => {
    await teams.start();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'notify-durability');
  });

  afterAll(async () => {
    await teams.stop();
  });

  it('delivers every accepted notification after a restart, each under one id', async () => {
    const path = `/burst-${randomUUID()}`;
    const channel = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: { name: 'burst', kind: 'teams', teams: { webhook_url: `${teams.url}${path}` } },
    });
    expect(channel.status).toBe(201);
    const keys = Array.from({ length: TOTAL }, (_, i) => `burst-${i}-${randomUUID()}`);
    const send = (i: number) =>
      gw('/notifications/send', {
        headers: withKey(tenant.test_key),
        body: { channel_id: channel.body.id, body: `message ${i}`, idempotency_key: keys[i] },
      }).catch(() => ({ status: 0, body: { id: undefined } }));

    const accepted = new Map<number, string>();
    let next = 0;
    let killed = false;
    let killedThenExited: Promise<void> | undefined;
    const pid = processIds(env.pidDir, 'notification')[0];
    const worker = async () => {
      while (next < TOTAL) {
        const i = next++;
        const res = await send(i);
        if (res.status === 202) accepted.set(i, res.body.id as string);
        if (!killed && accepted.size >= KILL_AFTER) {
          killed = true;
          process.kill(pid, 'SIGKILL');
          killedThenExited = processExited(pid);
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await killedThenExited;
    // What reached the stand-in from the dead process: a moment lets the last bytes it wrote be read.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const reachedBeforeRestart = new Set(teams.at(path).map((r) => r.headers['x-notification-id'] as string));
    const beforeRestart = accepted.size;
    expect(beforeRestart).toBeGreaterThanOrEqual(KILL_AFTER);

    await startProcess({
      name: 'notification',
      entry: serviceEntry('notification'),
      env: env.serviceEnv.notification,
      healthUrl: `${env.serviceUrls.notification}/actuator/health`,
      pidDir: env.pidDir,
    });
    // A client retries what was not answered 202, with the same idempotency key: the same notification, never a second.
    for (let i = 0; i < TOTAL; i++) {
      if (accepted.has(i)) continue;
      const res = await send(i);
      expect(res.status).toBe(202);
      accepted.set(i, res.body.id as string);
    }
    const ids = new Set(accepted.values());
    expect(ids.size).toBe(TOTAL);

    await eventually(
      'every accepted notification at the stand-in',
      () => Promise.resolve(new Set(teams.at(path).map((r) => r.headers['x-notification-id'])).size >= TOTAL ? true : undefined),
      90_000,
      500,
    );
    const perId = new Map<string, number>();
    for (const r of teams.at(path)) perId.set(r.headers['x-notification-id'] as string, (perId.get(r.headers['x-notification-id'] as string) ?? 0) + 1);
    expect(new Set(perId.keys())).toEqual(ids);
    const repeated = [...perId].filter(([, n]) => n > 1).map(([id]) => id);
    // At least once: an attempt on the wire when the process died is made again, because its
    // answer was never recorded. Only those: a notification first sent by the restarted process
    // arrives once. (A count bound would depend on how many sends each work item batched, which
    // grows as the machine slows.)
    process.stdout.write(`[durability] ${beforeRestart} accepted before the kill; ${repeated.length} of ${TOTAL} arrived twice (in flight at the kill)\n`);
    expect(repeated.filter((id) => !reachedBeforeRestart.has(id))).toEqual([]);

    // The history records each one delivered exactly once (the record follows the stand-in's answer).
    const history = async (): Promise<Json[]> => {
      const all: Json[] = [];
      let cursor: string | null = null;
      do {
        const page: Json = (
          await gw(`/notifications/history?channel_id=${channel.body.id as string}&limit=200${cursor ? `&cursor=${cursor}` : ''}`, {
            headers: withKey(tenant.test_key),
          })
        ).body;
        all.push(...(page.data ?? []));
        cursor = page.next_cursor ?? null;
      } while (cursor);
      return all;
    };
    const rows = await eventually(
      'every notification recorded delivered',
      async () => {
        const all = await history();
        return all.length === TOTAL && all.every((n) => n.status === 'delivered') ? all : undefined;
      },
      60_000,
      500,
    );
    for (const n of rows) expect((n.attempts as Json[]).filter((x) => x.outcome === 'delivered')).toHaveLength(1);
    const delivered = rows.length;
    expect(delivered).toBe(TOTAL);
  }, 180_000);
});
