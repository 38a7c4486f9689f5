import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The schema itself is made by db-setup (it needs the owner role); this records what it is for. */
export class CreateSchema1763800000000 implements MigrationInterface {
  name = 'CreateSchema1763800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`comment on schema portal is 'Portal service: owned by apps/portal'`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`comment on schema portal is null`);
  }
}
