import { Module } from '@nestjs/common';
import { AgentsModule } from './agents/agents.module.js';
import { CompletionsModule } from './completions/completions.module.js';
import { ProvidersModule } from './providers/providers.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [ProvidersModule, CompletionsModule, AgentsModule] })
export class AppModule {}
