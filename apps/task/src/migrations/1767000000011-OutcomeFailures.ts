import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The outcome outbox ends: a publish the reconciler tried and that failed counts in
 * `outcome_attempts` with its last error (short, never the outcome itself). One NATS refuses for
 * good (too large), or still failing TASK_OUTBOX_GIVE_UP_MS after the decision, is given up:
 * `outcome_failed_at` is set and the outbox flag cleared, so the reconciler's scan (the partial
 * index `tasks_outbox`) no longer holds it; the row stays for an operator.
 */
export class OutcomeFailures1767000000011 implements MigrationInterface {
  name = 'OutcomeFailures1767000000011';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table task.tasks
      add column outcome_attempts int not null default 0,
      add column outcome_error text,
      add column outcome_failed_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`alter table task.tasks drop column outcome_attempts, drop column outcome_error, drop column outcome_failed_at`);
  }
}
