import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateSecrets1764000002000 implements MigrationInterface {
  name = 'CreateSecrets1764000002000';

  async up(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }

  async down(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }
}
