import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Deleting a customer revokes its keys and keeps their records (a key record is never deleted:
 * the audit log and `replaced_by` name it), so a key no longer needs its customer row. Without
 * the row the key does not verify (the verification lookup requires an enabled customer).
 */
export class KeysOutliveTheirCustomer1766600001000 implements MigrationInterface {
  name = 'KeysOutliveTheirCustomer1766600001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`alter table account.api_keys drop constraint api_keys_tenant_id_customer_id_fkey`);
  }

  async down(q: QueryRunner): Promise<void> {
    // Keys of deleted customers have no row to point at: they go (they were revoked) before the constraint returns.
    await q.query(
      `delete from account.api_keys k where k.customer_id is not null and not exists (select 1 from account.customers c where c.tenant_id = k.tenant_id and c.id = k.customer_id)`,
    );
    await q.query(
      `alter table account.api_keys add constraint api_keys_tenant_id_customer_id_fkey foreign key (tenant_id, customer_id) references account.customers (tenant_id, id)`,
    );
  }
}
