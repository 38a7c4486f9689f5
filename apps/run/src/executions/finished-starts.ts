import { Injectable } from '@nestjs/common';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import type { ExecutionRow } from '../engine/execution.records.js';
import { executionsRepository, type FinishedStart } from './executions.repository.js';

type Outcome = { row: ExecutionRow | undefined } | { error: unknown };

/**
 * The starts whose runs were done ahead of their rows (pure-runs.ts) are written by
 * run.start_finished; those of one tenant context that arrive together (TenantBatcher: the same
 * turn of the event loop, or while the context's last batch is still in the database) share one
 * statement, one transaction and one commit (sql/start_finished_batch.sql). A start alone is the
 * single call it always was. A batch that fails wrote nothing, and each of its starts is then
 * made alone, so a start's error is only ever its own.
 */
@Injectable()
export class FinishedStarts {
  private readonly batcher: TenantBatcher<FinishedStart, Outcome>;

  constructor(private readonly db: TenantDb) {
    this.batcher = new TenantBatcher((ctx, starts) => this.writeAll(ctx, starts), { inFlight: 1 });
  }

  async write(ctx: TenantContext, start: FinishedStart): Promise<ExecutionRow | undefined> {
    const outcome = await this.batcher.submit(ctx, start);
    if ('error' in outcome) throw outcome.error;
    return outcome.row;
  }

  private async writeAll(ctx: TenantContext, starts: FinishedStart[]): Promise<Outcome[]> {
    if (starts.length > 1) {
      try {
        const rows = new Map((await executionsRepository.startFinishedBatch(this.db, ctx, starts)).map((row) => [row.id, row]));
        return starts.map((s) => ({ row: rows.get(s.start.id) }));
      } catch {
        // Nothing of the batch was written: each start alone, with its own outcome.
      }
    }
    return Promise.all(
      starts.map((s) =>
        executionsRepository.startFinished(this.db, ctx, s.start, s.claim, s.run).then(
          (row): Outcome => ({ row }),
          (error: unknown): Outcome => ({ error }),
        ),
      ),
    );
  }
}
