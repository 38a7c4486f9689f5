import { Injectable } from '@nestjs/common';
import { TenantBatcher, TenantDb, type TenantContext } from '@platform/db';
import type { ExecutionRow } from '../engine/execution.records.js';
import { executionsRepository, finishedStartJson, type FinishedStart } from './executions.repository.js';

type Outcome = { row: ExecutionRow | undefined } | { error: unknown };

/** A start with its run in it: the value it goes with, and its element of a batch. */
interface Batched {
  start: FinishedStart;
  json: string;
}

/**
 * A start larger than this (its input, step records and log lines as JSON) is written alone: a
 * batch (up to 64) stays a few MiB at most, however large the inputs a tenant sends.
 */
const BATCHED_MAX_CHARS = 64 * 1024;

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
  private readonly batcher: TenantBatcher<Batched, Outcome>;

  constructor(private readonly db: TenantDb) {
    this.batcher = new TenantBatcher((ctx, starts) => this.writeAll(ctx, starts), { inFlight: 1 });
  }

  async write(ctx: TenantContext, start: FinishedStart): Promise<ExecutionRow | undefined> {
    const json = finishedStartJson(start);
    if (json.length > BATCHED_MAX_CHARS) return this.alone(ctx, start);
    const outcome = await this.batcher.submit(ctx, { start, json });
    if ('error' in outcome) throw outcome.error;
    return outcome.row;
  }

  private alone(ctx: TenantContext, s: FinishedStart): Promise<ExecutionRow | undefined> {
    return executionsRepository.startFinished(this.db, ctx, s.start, s.claim, s.run);
  }

  private async writeAll(ctx: TenantContext, batch: Batched[]): Promise<Outcome[]> {
    if (batch.length > 1) {
      try {
        const written = await executionsRepository.startFinishedBatch(
          this.db,
          ctx,
          batch.map((b) => b.json),
        );
        const rows = new Map(written.map((row) => [row.id, row]));
        return batch.map((b) => ({ row: rows.get(b.start.start.id) }));
      } catch {
        // Nothing of the batch was written: each start alone, with its own outcome.
      }
    }
    return Promise.all(
      batch.map((b) =>
        this.alone(ctx, b.start).then(
          (row): Outcome => ({ row }),
          (error: unknown): Outcome => ({ error }),
        ),
      ),
    );
  }
}
