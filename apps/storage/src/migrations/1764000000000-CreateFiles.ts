import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateFiles1764000000000 implements MigrationInterface {
  name = 'CreateFiles1764000000000';

  async up(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }

  async down(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }
}
