import { Inject, Injectable } from '@nestjs/common';
import { TenantDb } from '@platform/db';
import { Bus, BusError, downstreamRefusal, messageContext, RunSubjects } from '@platform/messaging';
import { TRIGGER_CONFIG, type TriggerConfig } from '../config/trigger.config.js';
import type { TriggerExecutionRow } from './trigger.record.js';
import { executionsRepository } from './triggers.repository.js';

/**
 * Starts the run of a claimed trigger execution. The idempotency key is the claim's own
 * (trigger and firing), so the scheduler, the reconciler or a restarted replica asking again get
 * the same run: a crash between claim and start neither loses nor doubles it. Retrying ends: a
 * start the run service failed on counts towards TRIGGER_START_MAX_ATTEMPTS, and the reconciler
 * gives up on a firing pending for TRIGGER_PENDING_GIVE_UP_MS (the run service down all along).
 */
@Injectable()
export class TriggerRuns {
  constructor(
    private readonly bus: Bus,
    private readonly db: TenantDb,
    @Inject(TRIGGER_CONFIG) private readonly config: TriggerConfig,
  ) {}

  async start(e: TriggerExecutionRow, triggerType: 'schedule' | 'event' | 'webhook'): Promise<void> {
    const ctx = { tenantId: e.tenant_id, environmentId: e.environment_id, scopeId: e.scope_id };
    let runId: string | null = null;
    let failure: string | null = null;
    try {
      const answer = await this.bus.request(
        RunSubjects.executionsStart,
        {
          workflowId: e.workflow_id,
          input: e.run_input ?? {},
          trigger: { type: triggerType, id: e.trigger_id },
          idempotencyKey: `trigger:${e.trigger_id}:${e.fire_key}`.slice(0, 255),
        },
        messageContext(ctx, { actor: `trigger:${e.trigger_id}` }),
        { timeoutMs: 5000 },
      );
      runId = answer.runId;
    } catch (error) {
      // The run service refused (workflow gone or disabled), or the start was too large to send: final.
      // Otherwise the claim stays pending for the reconciler.
      const refusal = downstreamRefusal(error);
      if (refusal) failure = refusal.message;
      else {
        const unanswered = error instanceof BusError && (error.code === 'timeout' || error.code === 'unavailable');
        if (!unanswered) await this.countFailure(ctx, e.id, (error as Error).message);
        return;
      }
    }
    await this.db.run(ctx, (m) => executionsRepository.recordStart(m, e.id, runId, runId ? 'started' : 'failed', failure), { asyncCommit: true });
  }

  private async countFailure(ctx: { tenantId: string; environmentId: string; scopeId: string | null }, id: string, error: string): Promise<void> {
    await this.db
      .run(ctx, (m) => executionsRepository.recordFailedAttempt(m, id, error, this.config.TRIGGER_START_MAX_ATTEMPTS))
      // Not counted this time: the reconciler tries it again, and the age limit still applies.
      .catch(() => undefined);
  }
}
