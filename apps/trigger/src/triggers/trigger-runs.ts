import { Injectable } from '@nestjs/common';
import { TenantDb } from '@platform/db';
import { Bus, BusError, messageContext, RunSubjects } from '@platform/messaging';
import type { TriggerExecutionRow } from './trigger.record.js';
import { executionsRepository } from './triggers.repository.js';

/**
 * Starts the run of a claimed trigger execution. The idempotency key is the claim's own
 * (trigger and firing), so the scheduler, the reconciler or a restarted replica asking again get
 * the same run: a crash between claim and start neither loses nor doubles it.
 */
@Injectable()
export class TriggerRuns {
  constructor(
    private readonly bus: Bus,
    private readonly db: TenantDb,
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
      // The run service refused (workflow gone or disabled): final. Otherwise the claim stays pending for the reconciler.
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500) failure = error.remote.message;
      else return;
    }
    await this.db.run(ctx, (m) => executionsRepository.recordStart(m, e.id, runId, runId ? 'started' : 'failed', failure), { asyncCommit: true });
  }
}
