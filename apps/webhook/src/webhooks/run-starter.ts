import { Injectable } from '@nestjs/common';
import { Bus, BusError, downstreamRefusal, messageContext, RunSubjects } from '@platform/messaging';
import type { DeliveryRow } from './webhook.record.js';

/**
 * A start that failed is `permanent` (the run service refused it: recorded at once), or tried
 * again; a retry `counts` towards WEBHOOK_START_MAX_ATTEMPTS when the failure was this start's
 * own (the run service failed on it, or it could not be sent), not when the run service did not
 * answer at all (down or slow: only WEBHOOK_START_GIVE_UP_MS bounds an outage).
 */
export type StartOutcome = { runId: string; error: null } | { runId: null; error: string; permanent: boolean; counts?: boolean };

/**
 * Starts a delivery's run through `run.executions.start`, with the run id the delivery was given
 * when it was accepted: the starter, the reconciler and a duplicate delivery asking again all get
 * the same run. A refusal by the run service (workflow missing or disabled) is permanent; any
 * other failure is not, and the reconciler tries again (see StartOutcome for how often).
 */
@Injectable()
export class RunStarter {
  constructor(private readonly bus: Bus) {}

  async start(
    delivery: Pick<DeliveryRow, 'id' | 'webhook_id' | 'workflow_id' | 'tenant_id' | 'environment_id' | 'scope_id' | 'run_input' | 'run_id'>,
  ): Promise<StartOutcome> {
    try {
      const answer = await this.bus.request(
        RunSubjects.executionsStart,
        {
          workflowId: delivery.workflow_id,
          input: delivery.run_input ?? {},
          trigger: { type: 'webhook', id: delivery.webhook_id },
          ...(delivery.run_id ? { executionId: delivery.run_id } : { idempotencyKey: `webhook-delivery:${delivery.id}` }),
        },
        messageContext(
          { tenantId: delivery.tenant_id, environmentId: delivery.environment_id, scopeId: delivery.scope_id },
          { actor: `webhook:${delivery.webhook_id}` },
        ),
        { timeoutMs: 5000 },
      );
      return { runId: answer.runId, error: null };
    } catch (error) {
      const refusal = downstreamRefusal(error);
      if (refusal) return { runId: null, error: `run not started: ${refusal.message}`, permanent: true };
      const unanswered = error instanceof BusError && (error.code === 'timeout' || error.code === 'unavailable');
      return { runId: null, error: (error as Error).message, permanent: false, counts: !unanswered };
    }
  }
}
