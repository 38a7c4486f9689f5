import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a trigger listens for an event is now answered from what a tenant's triggers listen
 * for, kept in memory (triggers/listener.cache.ts, sql/listeners.sql): the per-event lookup goes.
 */
export class ListenersPerTenant1766700000000 implements MigrationInterface {
  name = 'ListenersPerTenant1766700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`drop function if exists trigger.has_listener(uuid, uuid, uuid, boolean, text, uuid)`);
  }

  async down(): Promise<void> {
    // The function's text lived in its migration (ListenerLookup), which a full down re-runs.
  }
}
