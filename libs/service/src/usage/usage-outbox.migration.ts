import type { MigrationInterface, QueryRunner } from 'typeorm';
import { applyTenantRls, dropTenantRlsStatements } from '@platform/db';

/** When the outbox came; the same in every metering service's list (each schema keeps its own migrations table). */
export const USAGE_OUTBOX_MIGRATION = 'UsageOutbox1766300000000';
/** When the outbox's publishes became bounded (usageOutboxFailuresMigration); last in each list that holds the outbox. */
export const USAGE_OUTBOX_FAILURES_MIGRATION = 'UsageOutboxFailures1767000000010';

const SCHEMA = /^[a-z_][a-z0-9_]*$/;

/**
 * The usage outbox of one service's schema, for its migrations list: `usageOutboxMigration('run')`.
 * A usage fact is written here in the transaction of the business change it meters, and removed
 * once JetStream has stored it (see UsageOutbox). Rows are few and short-lived; the index on
 * created_at serves the relay, which looks only for rows left behind.
 */
export function usageOutboxMigration(schema: string): new () => MigrationInterface {
  const table = outboxTable(schema);
  return class UsageOutboxMigration implements MigrationInterface {
    name = USAGE_OUTBOX_MIGRATION;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`create table ${table} (
        tenant_id uuid not null,
        environment_id uuid not null,
        scope_id uuid,
        event_id uuid not null,
        metric text not null,
        quantity bigint not null,
        key_mode text check (key_mode in ('live', 'test')),
        occurred_at timestamptz not null,
        request_id text not null,
        actor text,
        created_at timestamptz not null default now(),
        primary key (tenant_id, event_id))`);
      await q.query(`create index usage_outbox_created on ${table} (created_at)`);
      // A customer's request writes its own facts only; the relay reads across tenants as the system role.
      await applyTenantRls(q, table, { scope: 'owned' });
    }

    async down(q: QueryRunner): Promise<void> {
      for (const statement of dropTenantRlsStatements(table)) await q.query(statement);
      await q.query(`drop table ${table}`);
    }
  };
}

/**
 * The relay's publishes end (after usageOutboxMigration, in the same list): a failed publish counts
 * in `publish_attempts` with its last error (short, never the fact); a fact NATS refuses for good,
 * or still failing USAGE_OUTBOX_GIVE_UP_MS after it was written, gets `publish_failed_at` and is
 * no longer taken. The row stays for an operator; the relay's index leaves failed rows out, so a
 * pass never reads past them.
 */
export function usageOutboxFailuresMigration(schema: string): new () => MigrationInterface {
  const table = outboxTable(schema);
  return class UsageOutboxFailuresMigration implements MigrationInterface {
    name = USAGE_OUTBOX_FAILURES_MIGRATION;

    async up(q: QueryRunner): Promise<void> {
      await q.query(`alter table ${table}
        add column publish_attempts int not null default 0,
        add column publish_error text,
        add column publish_failed_at timestamptz`);
      await q.query(`drop index ${schema}.usage_outbox_created`);
      await q.query(`create index usage_outbox_created on ${table} (created_at) where publish_failed_at is null`);
    }

    async down(q: QueryRunner): Promise<void> {
      await q.query(`drop index ${schema}.usage_outbox_created`);
      await q.query(`create index usage_outbox_created on ${table} (created_at)`);
      await q.query(`alter table ${table} drop column publish_attempts, drop column publish_error, drop column publish_failed_at`);
    }
  };
}

function outboxTable(schema: string): string {
  if (!SCHEMA.test(schema)) throw new Error(`Not a plain schema name: ${schema}`);
  return `${schema}.usage_outbox`;
}
