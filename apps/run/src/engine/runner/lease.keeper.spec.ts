import { describe, expect, it } from '@jest/globals';
import type { Bus } from '@platform/messaging';
import { RunConfig } from '../../config/run.config.js';
import type { ExecutionStore } from '../engine.ports.js';
import type { ClaimedExecution } from '../execution.records.js';
import { AbortRun } from '../interpreter/signals.js';
import { LeaseKeeper } from './lease.keeper.js';
import type { WorkerIdentity } from './worker.identity.js';

/**
 * The bound on a running execution that keeps being re-sent (lease lost, worker crashed): its
 * deadline. Whoever claims it past `timeout_at` holds it already aborted as timed_out, so the
 * interpreter ends it (`{ status: 'timed_out' }`) instead of running it again.
 */
describe('LeaseKeeper.hold × the execution deadline → the hold ends timed_out', () => {
  const keeper = (owned = true) =>
    new LeaseKeeper(
      {} as Bus,
      { renewLease: () => Promise.resolve(owned) } as unknown as ExecutionStore,
      { claim: 'worker-1' } as unknown as WorkerIdentity,
      Object.assign(new RunConfig(), { RUN_LEASE_MS: 300 }),
    );
  const execution = (msFromNow: number) => ({ id: 'e1', timeout_at: new Date(Date.now() + msFromNow) }) as unknown as ClaimedExecution;
  const reason = (signal: AbortSignal) => (signal.reason as AbortRun).reason;

  it('claimed again past its deadline (a re-sent running execution) → aborted timed_out at once', () => {
    const hold = keeper().hold(execution(-1), () => undefined);
    expect(hold.signal.aborted).toBe(true);
    expect(hold.signal.reason).toBeInstanceOf(AbortRun);
    expect(reason(hold.signal)).toBe('timed_out');
    hold.release();
  });

  it('its deadline passing while held → aborted timed_out then', async () => {
    const hold = keeper().hold(execution(50), () => undefined);
    expect(hold.signal.aborted).toBe(false);
    await new Promise((r) => setTimeout(r, 120));
    expect(reason(hold.signal)).toBe('timed_out');
    hold.release();
  });

  it('its lease taken by another worker → aborted lease_lost', async () => {
    const hold = keeper(false).hold(execution(60_000), () => undefined);
    await new Promise((r) => setTimeout(r, 250));
    expect(reason(hold.signal)).toBe('lease_lost');
    hold.release();
  });
});
