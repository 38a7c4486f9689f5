import { Module } from '@nestjs/common';
import { DataModule } from './data/data.module.js';
import { FilesModule } from './files/files.module.js';
import { ResourcesModule } from './resources/resources.module.js';
import { SecretsModule } from './secrets/secrets.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [FilesModule, ResourcesModule, SecretsModule, DataModule] })
export class AppModule {}
