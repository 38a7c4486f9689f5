import { Injectable, Logger } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import { UsageMeter, usageEventId } from '@platform/messaging';
import type { ExecutionStatus, StartRequest, StartResult } from '../engine/execution.records.js';
import { RunDispatcher } from '../engine/runner/run.dispatcher.js';
import { ExecutionStoreService } from './execution-store.service.js';

/**
 * Every way a run starts from outside (API, execute, NATS from triggers/webhooks/portal) comes
 * here: the execution row is committed first, then the dispatcher runs it here or queues it.
 */
@Injectable()
export class ExecutionStarter {
  private readonly logger = new Logger(ExecutionStarter.name);

  constructor(
    private readonly store: ExecutionStoreService,
    private readonly dispatcher: RunDispatcher,
    private readonly usage: UsageMeter,
  ) {}

  /** `status` is what the caller is told: `queued` for a new run (accepted, not yet done), else the first run's status. */
  async start(ctx: TenantContext & { keyMode?: 'live' | 'test' }, request: StartRequest): Promise<StartResult & { status: ExecutionStatus }> {
    const result = await this.dispatcher.start((claim) => this.store.start(ctx, request, claim));
    // Metered once per run: the event id comes from the run id, so a repeated start counts once.
    if (result.created) {
      this.usage
        .record(ctx, { metric: 'runs', quantity: 1, eventId: usageEventId('run', result.execution.id), keyMode: ctx.keyMode })
        .catch((error: unknown) => this.logger.warn(`run ${result.execution.id} not metered: ${String(error)}`));
    }
    return { ...result, status: result.created ? 'queued' : result.execution.status };
  }
}
