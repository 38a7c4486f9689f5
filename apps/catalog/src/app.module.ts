import { Module } from '@nestjs/common';
import { AiAgentsModule } from './ai-agents/ai-agents.module.js';
import { LlmModelsModule } from './llm-models/llm-models.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [AiAgentsModule, LlmModelsModule] })
export class AppModule {}
