import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import {
  AGENT_APPROVAL_OUTCOMES_QUEUE,
  NATS_CONNECTION,
  ensureWorkQueue,
  hasTenant,
  startWorker,
  type AgentApprovalOutcomeItem,
  type Worker,
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
export class ApprovalOutcomesWorker implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(ApprovalOutcomesWorker.name);
  private worker?: Worker;

  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly runner: AgentRunner,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, AGENT_APPROVAL_OUTCOMES_QUEUE);
    this.worker = await startWorker<AgentApprovalOutcomeItem>(
      this.nc,
      AGENT_APPROVAL_OUTCOMES_QUEUE,
      async ({ data, context }) => {
        if (!hasTenant(context)) return { ack: true };
        const resumed = await this.runner.resume({ tenantId: context.tenantId, environmentId: context.environmentId, scopeId: null }, data);
        if (!resumed) this.logger.debug(`agent run ${data.agentRunId} was not waiting for call ${data.toolCallId}: outcome of task ${data.taskId} dropped`);
        return { ack: true };
      },
      { concurrency: 16, onError: (error) => this.logger.error(`approval outcome failed: ${String(error)}`) },
    );
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.stop();
  }
}
