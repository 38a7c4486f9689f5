import { Module } from '@nestjs/common';
import { AiAgentsModule } from './ai-agents/ai-agents.module.js';
import { ConnectorsModule } from './connectors/connectors.module.js';
import { LlmModelsModule } from './llm-models/llm-models.module.js';
import { MarketplaceModule } from './marketplace/marketplace.module.js';
import { TemplatesModule } from './templates/templates.module.js';

/** The service's features; platform concerns (health, auth, database, NATS) come from bootstrapService. */
@Module({ imports: [ConnectorsModule, TemplatesModule, MarketplaceModule, AiAgentsModule, LlmModelsModule] })
export class AppModule {}
