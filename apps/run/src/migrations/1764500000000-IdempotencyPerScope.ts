import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An Idempotency-Key is the caller's own: a customer's key must not collide with the same key of
 * another customer (or of the tenant) in one data plane, which it cannot even see under RLS.
 */
export class IdempotencyPerScope1764500000000 implements MigrationInterface {
  async up(q: QueryRunner): Promise<void> {
    await q.query(`drop index run.executions_idempotency`);
    await q.query(
      `create unique index executions_idempotency on run.executions
         (tenant_id, environment_id, coalesce(scope_id, '00000000-0000-0000-0000-000000000000'::uuid), idempotency_key) where idempotency_key is not null`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`drop index run.executions_idempotency`);
    await q.query(
      `create unique index executions_idempotency on run.executions (tenant_id, environment_id, idempotency_key) where idempotency_key is not null`,
    );
  }
}
