import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateResources1764000001000 implements MigrationInterface {
  name = 'CreateResources1764000001000';

  async up(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }

  async down(_q: QueryRunner): Promise<void> {
    // Filled in with the feature.
  }
}
