import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A data key that does not open under the master key it names (a damaged row) is marked by the
 * re-wrap job (`rewrap_failed_at`, `rewrap_error`: short, never key material) and left out of its
 * scan, so it is tried once instead of every pass and cannot hold back the keys behind it. A
 * re-wrap clears the mark; after restoring a row, `update storage.data_keys set rewrap_failed_at =
 * null` has the next pass try it again.
 */
export class DataKeyRewrapFailures1767000000020 implements MigrationInterface {
  name = 'DataKeyRewrapFailures1767000000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table storage.data_keys add column rewrap_failed_at timestamptz, add column rewrap_error text`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table storage.data_keys drop column rewrap_failed_at, drop column rewrap_error`);
  }
}
