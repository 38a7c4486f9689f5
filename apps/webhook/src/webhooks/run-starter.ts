import { Injectable } from '@nestjs/common';
import { Bus, BusError, messageContext, RunSubjects } from '@platform/messaging';
import type { DeliveryRow } from './webhook.record.js';

export type StartOutcome = { runId: string; error: null } | { runId: null; error: string; permanent: boolean };

/**
 * Starts a delivery's run through `run.executions.start`, with the run id the delivery was given
 * when it was accepted: the starter, the reconciler and a duplicate delivery asking again all get
 * the same run. A refusal by the run service (workflow missing or disabled) is permanent; a
 * timeout or an absent run service is not, and the reconciler tries again.
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
      if (error instanceof BusError && error.code === 'remote' && error.remote && error.remote.status < 500) {
        return { runId: null, error: `run not started: ${error.remote.message}`, permanent: true };
      }
      return { runId: null, error: (error as Error).message, permanent: false };
    }
  }
}
