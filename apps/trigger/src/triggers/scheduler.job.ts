import { Inject, Injectable } from '@nestjs/common';
import { newId } from '@platform/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { TRIGGER_CONFIG, type TriggerConfig } from '../config/trigger.config.js';
import { mapInput } from './input-mapper.js';
import { planDue } from './schedule.js';
import { scheduleOf, type TriggerExecutionRow, type TriggerRow } from './trigger.record.js';
import { TriggerRuns } from './trigger-runs.js';
import { executionsRepository, triggersRepository } from './triggers.repository.js';

const BATCH = 200;

/** 86400000 → "24 h". */
const duration = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms % 60_000 === 0 ? `${ms / 60_000} min` : `${ms / 1000} s`);

/**
 * The scheduler, on every replica: each pass claims the due ticks of every tenant's schedules in
 * one transaction (rows locked with SKIP LOCKED, so replicas split the work and never take the
 * same trigger at once), records one trigger execution per tick under its unique key and moves
 * `next_fire_at`, commits, and only then starts the runs. State is read from PostgreSQL on every
 * pass, so enabling or disabling a trigger takes effect at once everywhere. Every few passes it
 * also starts claims left pending by a crash or a run-service outage.
 */
@Injectable()
export class SchedulerJob extends PeriodicJob {
  private passes = 0;

  constructor(
    private readonly system: SystemDb,
    private readonly runs: TriggerRuns,
    @Inject(TRIGGER_CONFIG) private readonly config: TriggerConfig,
  ) {
    super({ name: 'SchedulerJob', intervalMs: config.TRIGGER_SCHEDULER_INTERVAL_MS, runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const claimed = await this.system.run('scheduler: claim due ticks of every tenant', (m) => this.claimDue(m), 'debug');
    await Promise.all(claimed.map((e) => this.runs.start(e, 'schedule')));
    if (this.passes++ % 8 === 0) await this.reconcile();
  }

  private async claimDue(m: Parameters<Parameters<SystemDb['run']>[1]>[0]): Promise<TriggerExecutionRow[]> {
    const due = await triggersRepository.lockDue(m, BATCH);
    const now = new Date();
    const claimed: TriggerExecutionRow[] = [];
    for (const trigger of due) {
      const plan = planDue(scheduleOf(trigger), trigger.next_fire_at!, now, this.config.TRIGGER_MISFIRE_GRACE_MS, trigger.misfire ?? 'fire_once');
      for (const at of plan.fire) {
        const row = await this.claim(m, trigger, at, now);
        if (row?.status === 'pending') claimed.push(row);
      }
      if (plan.skipped > 0 && trigger.misfire === 'skip') {
        await executionsRepository.claim(m, {
          ...this.base(trigger),
          id: newId(),
          fireKey: `skipped:${now.toISOString()}`,
          scheduledFor: now,
          runInput: null,
          firedAt: now,
          status: 'skipped',
          error: `${plan.skipped} tick(s) missed while no scheduler ran`,
        });
      }
      await triggersRepository.setNextFire(m, trigger.tenant_id, trigger.id, plan.next);
    }
    return claimed;
  }

  private async claim(m: Parameters<Parameters<SystemDb['run']>[1]>[0], trigger: TriggerRow, at: Date, now: Date): Promise<TriggerExecutionRow | undefined> {
    const context = { trigger: { id: trigger.id, name: trigger.name, type: 'schedule' }, scheduled_for: at.toISOString(), fired_at: now.toISOString() };
    let runInput: Record<string, unknown> | null = null;
    let error: string | null = null;
    try {
      runInput = await mapInput(trigger.input, context);
    } catch (e) {
      error = `input expression failed: ${(e as Error).message}`;
    }
    return executionsRepository.claim(m, {
      ...this.base(trigger),
      id: newId(),
      fireKey: at.toISOString(),
      scheduledFor: at,
      runInput,
      firedAt: now,
      status: error ? 'failed' : 'pending',
      error,
    });
  }

  private base(trigger: TriggerRow) {
    return {
      tenantId: trigger.tenant_id,
      environmentId: trigger.environment_id,
      scopeId: trigger.scope_id,
      triggerId: trigger.id,
      workflowId: trigger.workflow_id,
    };
  }

  /** Claims committed but never started: a replica died between the two, or the run service was away. */
  private async reconcile(): Promise<void> {
    const maxAge = this.config.TRIGGER_PENDING_GIVE_UP_MS;
    const given = await this.system.statement(
      'scheduler: give up on claims pending too long',
      (m) => executionsRepository.giveUpPending(m, maxAge, `run not started within ${duration(maxAge)}: the start did not get through to the run service`),
      'debug',
    );
    this.repaired('given_up', given);
    if (given) this.logger.warn(`${given} trigger firings recorded as failed: their runs did not start within TRIGGER_PENDING_GIVE_UP_MS`);
    const stale = await this.system.run(
      'scheduler: start claimed ticks left pending',
      (m) => executionsRepository.stalePending(m, this.config.TRIGGER_PENDING_RETRY_MS, BATCH),
      'debug',
    );
    await Promise.all(stale.map((e) => this.runs.start(e, e.fire_key.startsWith('event:') ? 'event' : 'schedule')));
    this.repaired('start_retried', stale.length);
  }
}
