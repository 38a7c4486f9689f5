import { describe, expect, it } from '@jest/globals';
import { SubscriptionSubjects } from '@platform/messaging';
import { LIMITS_CHANGED, LIMITS_GET, type PlanChannel, type TenantLimits } from './plan-channel.js';
import { PlanDirectory } from './plan-directory.js';
import { quotaMetric } from './quota-routes.js';

const limits = (tenantId: string, live: number, computedAt: string): TenantLimits => ({
  tenantId,
  plan: 'p',
  rateLimits: { live, test: live * 2, user: live },
  exhausted: [],
  computedAt,
});

function fakeChannel(answers: Record<string, TenantLimits>) {
  let push: ((l: TenantLimits) => void) | undefined;
  const asked: string[] = [];
  const channel: PlanChannel = {
    get: (tenantId) => {
      asked.push(tenantId);
      return Promise.resolve(answers[tenantId]);
    },
    onChange: (handler) => (push = handler),
    connected: () => true,
    close: () => undefined,
  };
  return { channel, asked, push: (l: TenantLimits) => push!(l) };
}

describe('PlanDirectory', () => {
  it('knows nothing of a caller until a service named its tenant, then asks once and caches', async () => {
    const fake = fakeChannel({ t1: limits('t1', 20, '2026-01-01T00:00:00.000Z') });
    const directory = new PlanDirectory(fake.channel, 30_000);
    expect(directory.limitsFor('key:a')).toBeUndefined();
    expect(fake.asked).toEqual([]);
    directory.learn('key:a', 't1');
    expect(directory.limitsFor('key:a')).toBeUndefined();
    await Promise.resolve();
    expect(directory.limitsFor('key:a')?.rateLimits.live).toBe(20);
    directory.limitsFor('key:a');
    expect(fake.asked).toEqual(['t1']);
  });

  it('takes pushed changes at once, but never an older computation over a newer one', async () => {
    const fake = fakeChannel({ t1: limits('t1', 20, '2026-01-01T00:00:01.000Z') });
    const directory = new PlanDirectory(fake.channel, 30_000);
    directory.learn('key:a', 't1');
    directory.limitsFor('key:a');
    await Promise.resolve();
    fake.push(limits('t1', 30, '2026-01-01T00:00:02.000Z'));
    expect(directory.limitsFor('key:a')?.rateLimits.live).toBe(30);
    fake.push(limits('t1', 5, '2026-01-01T00:00:00.000Z'));
    expect(directory.limitsFor('key:a')?.rateLimits.live).toBe(30);
    // A tenant this process never met is not cached.
    fake.push(limits('t2', 5, '2026-01-01T00:00:03.000Z'));
    directory.learn('key:b', 't2');
    expect(directory.limitsFor('key:b')).toBeUndefined();
  });

  it('asks again once the refresh interval has passed', async () => {
    const fake = fakeChannel({ t1: limits('t1', 20, '2026-01-01T00:00:00.000Z') });
    const directory = new PlanDirectory(fake.channel, 1000);
    directory.learn('key:a', 't1');
    directory.limitsFor('key:a');
    await Promise.resolve();
    directory.limitsFor('key:a', Date.now() + 1500);
    expect(fake.asked).toEqual(['t1', 't1']);
  });
});

describe('quotaMetric', () => {
  it.each([
    ['POST', '/v1/automations/run', 'runs'],
    ['POST', '/run/workflows/0194/execute', 'runs'],
    ['POST', '/portal/workflows/0194/run', 'runs'],
    ['POST', '/catalog/templates/slack-alert/instantiate', 'active_workflows'],
    ['POST', '/ai/chat', 'ai_tokens'],
    ['POST', '/ai/agents/x/execute?stream=1', 'ai_tokens'],
    ['POST', '/notifications/send', 'notifications'],
    ['POST', '/storage/files/upload', 'storage_bytes'],
    ['POST', '/api/v1/workflow/workflows', 'active_workflows'],
    ['GET', '/v1/automations/run', undefined],
    ['POST', '/run/executions/1/cancel', undefined],
  ])('%s %s consumes %s', (method, path, metric) => {
    expect(quotaMetric(method, path)).toBe(metric);
  });
});

describe('the subjects the gateway spells itself', () => {
  it('are the subscription contract’s', () => {
    expect([LIMITS_GET, LIMITS_CHANGED]).toEqual([SubscriptionSubjects.limitsGet, SubscriptionSubjects.limitsChanged]);
  });
});
