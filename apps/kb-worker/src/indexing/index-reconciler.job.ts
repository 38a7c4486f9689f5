import { Inject, Injectable } from '@nestjs/common';
import { SystemDb } from '@platform/db';
import { PeriodicJob } from '@platform/service';
import { KB_CONFIG, type KbConfig } from '../config/kb.config.js';
import { DocumentsService } from '../documents/documents.service.js';
import { documentIndexing } from '../documents/index.js';

/**
 * Queues again the documents owed indexing that made no progress: stored but never queued (NATS
 * was down at the upload), or whose work item was lost. A repeat is harmless: an indexer takes a
 * document only when it is queued or its lease ran out. Each re-queue is counted: after
 * KB_INDEX_MAX_REQUEUES without progress the document is failed with a reason, never queued forever.
 */
@Injectable()
export class IndexReconcilerJob extends PeriodicJob {
  constructor(
    private readonly system: SystemDb,
    private readonly documents: DocumentsService,
    @Inject(KB_CONFIG) private readonly config: KbConfig,
  ) {
    super({ name: 'KbIndexReconcilerJob', intervalMs: Math.max(2000, config.KB_INDEX_LEASE_MS), runAtStart: true });
  }

  protected async pass(): Promise<void> {
    const staleMs = this.config.KB_INDEX_LEASE_MS * 2;
    const stale = await this.system.run('kb reconciler: documents without indexing progress', (m) => documentIndexing.stale(m, staleMs, 500), 'debug');
    if (!stale.length) return;
    const max = this.config.KB_INDEX_MAX_REQUEUES;
    const exhausted = stale.filter((row) => row.requeues >= max);
    this.repaired('given_up', exhausted.length);
    if (exhausted.length) {
      const error = `Indexing made no progress after ${max} attempts; re-index the document to try again`;
      await this.system.run('kb reconciler: give up', (m) => documentIndexing.giveUp(m, exhausted, error), 'debug');
      this.logger.warn(`${exhausted.length} document(s) failed: indexing made no progress after ${max} attempts`);
    }
    const retried = stale.filter((row) => row.requeues < max);
    if (!retried.length) return;
    for (const row of retried) {
      await this.documents.enqueue({ tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id }, row.id, row.generation, Date.now());
    }
    this.repaired('requeued', retried.length);
    await this.system.run('kb reconciler: mark re-queued', (m) => documentIndexing.touch(m, retried), 'debug');
  }
}
