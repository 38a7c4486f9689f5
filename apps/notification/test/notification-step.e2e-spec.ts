import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isFinished } from '@platform/messaging';
import { call, createTenant, e2eEnvironment, eventually, withKey, type TestTenant } from '@platform/testing';
import { StandIn } from './stand-ins.js';

const env = e2eEnvironment();
type Json = Record<string, unknown> & { data?: Json[] };
const gw = (path: string, request?: Parameters<typeof call>[2]) => call<Json>(env.gatewayUrl, path, request);

describe('notifications from workflows and platform alerts', () => {
  let tenant: TestTenant;
  const teams = new StandIn();

  const channel = async (path: string): Promise<string> => {
    const res = await gw('/notifications/channels', {
      headers: withKey(tenant.test_key),
      body: { name: 'wf', kind: 'teams', teams: { webhook_url: `${teams.url}${path}` } },
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };
  const run = async (steps: unknown[], input: Record<string, unknown>, settings?: Record<string, unknown>): Promise<Json> => {
    const wf = await gw('/api/v1/workflow/workflows', { headers: withKey(tenant.test_key), body: { name: `wf-${randomUUID().slice(0, 8)}`, steps, settings } });
    expect(wf.status).toBe(201);
    const started = await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: wf.body.id, input } });
    expect(started.status).toBe(202);
    return eventually(
      'the execution to finish',
      async () => {
        const e = await gw(`/run/executions/${started.body.run_id as string}`, { headers: withKey(tenant.test_key) });
        return isFinished(e.body.status as string) ? e.body : undefined;
      },
      30_000,
    );
  };

  beforeAll(async () => {
    await teams.start();
    tenant = await createTenant(env.gatewayUrl, env.adminToken, 'notify-workflows');
  });

  afterAll(async () => {
    await teams.stop();
  });

  it("sends from a workflow's notification step, whose output carries the notification id", async () => {
    const path = `/step-${randomUUID()}`;
    const channelId = await channel(path);
    const done = await run(
      [
        {
          id: 'notify',
          type: 'notification',
          input: { channel_id: channelId, subject: 'Order shipped', body: '{% "Order **" & input.order & "** is on its way" %}' },
        },
      ],
      { order: 'A-17' },
    );
    expect(done.status).toBe('succeeded');
    const output = done.output as Json;
    expect(output).toEqual({ notification_id: expect.any(String), status: 'queued' });
    const received = await eventually('the card at the stand-in', () => Promise.resolve(teams.at(path)[0]), 30_000);
    expect(received.headers['x-notification-id']).toBe(output.notification_id);
    expect(JSON.stringify(received.body)).toContain('Order **A-17** is on its way');
    const history = await gw(`/notifications/history/${output.notification_id as string}`, { headers: withKey(tenant.test_key) });
    expect(history.body).toMatchObject({ source: 'workflow', channel_id: channelId });
  });

  it('rejects a notification step without a channel when the workflow is saved', async () => {
    const res = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: { name: 'bad', steps: [{ id: 'n', type: 'notification', input: { body: 'x' } }] },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('input.channel_id');
  });

  it('sends a failed-execution alert when the workflow settings ask for one', async () => {
    const path = `/alert-${randomUUID()}`;
    const channelId = await channel(path);
    const failed = await run(
      [{ id: 'check', type: 'fail', input: { code: 'bad_order', message: 'order {{1}} is invalid' } }],
      {},
      {
        alerts: { on_failure: { channel_id: channelId } },
      },
    );
    expect(failed.status).toBe('failed');
    const alert = await eventually('the alert at the stand-in', () => Promise.resolve(teams.at(path)[0]), 30_000);
    // what Teams shows: the card's texts with their Markdown escapes read (`bad\_order` shows `bad_order`)
    const card = alert.body as { attachments: { content: { body: { text: string }[] } }[] };
    const text = card.attachments[0].content.body.map((b) => b.text.replace(/\\(.)/g, '$1')).join('\n');
    expect(text).toContain(failed.id);
    expect(text).toContain('bad_order');
    expect(text).toContain('order {{1}} is invalid');
    const history = await gw(`/notifications/history?channel_id=${channelId}`, { headers: withKey(tenant.test_key) });
    expect(history.body.data).toEqual([expect.objectContaining({ source: 'platform', template: 'execution_failed' })]);

    // A workflow without alerts sends nothing.
    const quiet = `/quiet-${randomUUID()}`;
    const quietChannel = await channel(quiet);
    await run([{ id: 'check', type: 'fail', input: { message: 'no alert' } }], {}, { timeout_seconds: 60 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(teams.at(quiet)).toHaveLength(0);
    expect((await gw(`/notifications/history?channel_id=${quietChannel}`, { headers: withKey(tenant.test_key) })).body.data).toEqual([]);
  });

  it('sends a task notice when a task of a workflow whose settings ask for one is created', async () => {
    const path = `/task-${randomUUID()}`;
    const channelId = await channel(path);
    const wf = await gw('/api/v1/workflow/workflows', {
      headers: withKey(tenant.test_key),
      body: {
        name: `wf-${randomUUID().slice(0, 8)}`,
        steps: [{ id: 'approve', type: 'approval', input: { title: 'Refund order A-17?' } }],
        settings: { alerts: { on_task: { channel_id: channelId } } },
      },
    });
    expect(wf.status).toBe(201);
    const started = await gw('/v1/automations/run', { headers: withKey(tenant.test_key), body: { automation_id: wf.body.id, input: {} } });
    expect(started.status).toBe(202);
    const notice = await eventually('the task notice at the stand-in', () => Promise.resolve(teams.at(path)[0]), 30_000);
    expect(JSON.stringify(notice.body)).toContain('Refund order A-17?');
    const history = await gw(`/notifications/history?channel_id=${channelId}`, { headers: withKey(tenant.test_key) });
    expect(history.body.data).toEqual([expect.objectContaining({ source: 'platform', template: 'task_created' })]);
  });
});
