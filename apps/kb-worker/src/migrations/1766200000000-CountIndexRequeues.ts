import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * How often the reconciler has queued a document's indexing again without progress. A document
 * whose indexing never completes (it crashes its indexer every time) is failed after
 * KB_INDEX_MAX_REQUEUES instead of being queued forever; a new generation starts again from 0.
 */
export class CountIndexRequeues1766200000000 implements MigrationInterface {
  name = 'CountIndexRequeues1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table kb.documents add column requeues integer not null default 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table kb.documents drop column requeues`);
  }
}
