import { Module } from '@nestjs/common';
import { KnowledgeBasesModule } from './knowledge-bases/knowledge-bases.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [KnowledgeBasesModule] })
export class AppModule {}
