import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateDataTables1764000003000 implements MigrationInterface {
  name = 'CreateDataTables1764000003000';

  async up(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }

  async down(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }
}
