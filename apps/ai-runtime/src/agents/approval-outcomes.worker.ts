import { Inject, Injectable } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AGENT_APPROVAL_OUTCOMES_QUEUE,
  NATS_CONNECTION,
  QueueConsumer,
  hasTenant,
  type AgentApprovalOutcomeItem,
  type WorkItem,
  type WorkResult,
} from '@platform/messaging';
import { AgentRunner } from './agent-runner.service.js';

/**
 * Consumes the outcomes of agent approval tasks (JetStream: kept while no AI runtime replica
 * runs, so a run waiting across a restart resumes when one is back). The item is acknowledged
 * once the run is claimed for the decision; the rest of the run continues in the background, like
 * an execute whose caller went away. A decision for a run no longer waiting for that call (a
 * repeated delivery) is acknowledged and dropped.
 */
@Injectable()
export class ApprovalOutcomesWorker extends QueueConsumer<AgentApprovalOutcomeItem> {
  constructor(
    @Inject(NATS_CONNECTION) nc: NatsConnection,
    private readonly runner: AgentRunner,
  ) {
    super(nc, AGENT_APPROVAL_OUTCOMES_QUEUE, { concurrency: 16, failure: 'approval outcome failed' });
  }

  protected async handle({ data, context }: WorkItem<AgentApprovalOutcomeItem>): Promise<WorkResult> {
    if (!hasTenant(context)) return { ack: true };
    const resumed = await this.runner.resume({ tenantId: context.tenantId, environmentId: context.environmentId, scopeId: null }, data);
    if (!resumed) this.logger.debug(`agent run ${data.agentRunId} was not waiting for call ${data.toolCallId}: outcome of task ${data.taskId} dropped`);
    return { ack: true };
  }
}
