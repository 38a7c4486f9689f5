import { Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import type { ExecutionStatus } from '@platform/messaging';
import { UsageOutbox } from '@platform/service';
import type { StartRequest, StartResult } from '../engine/execution.records.js';
import { RunDispatcher } from '../engine/runner/run.dispatcher.js';
import { ExecutionStoreService } from './execution-store.service.js';

/**
 * Every way a run starts from outside (API, execute, NATS from triggers/webhooks/portal) comes
 * here: the execution row is committed first, then the dispatcher runs it here or queues it.
 */
@Injectable()
export class ExecutionStarter {
  constructor(
    private readonly store: ExecutionStoreService,
    private readonly dispatcher: RunDispatcher,
    private readonly usage: UsageOutbox,
  ) {}

  /** `status` is what the caller is told: `queued` for a new run (accepted, not yet done), else the first run's status. */
  async start(ctx: TenantContext & { keyMode?: 'live' | 'test' }, request: StartRequest): Promise<Omit<StartResult, 'usage'> & { status: ExecutionStatus }> {
    // Metered once per run: the fact is committed with the run's row (its id derived from the
    // run's), published here after the commit, or by the outbox relay if that fails.
    const { usage, ...result } = await this.dispatcher.start((claim, ahead) =>
      this.store.start(ctx, { ...request, meter: { keyMode: ctx.keyMode } }, claim, ahead),
    );
    if (usage) this.usage.publish([usage]);
    return { ...result, status: result.created ? 'queued' : result.execution.status };
  }
}
