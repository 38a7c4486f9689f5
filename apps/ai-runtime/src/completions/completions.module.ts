import { Module } from '@nestjs/common';
import { UsageOutboxModule } from '@platform/service';
import { AI_CONFIG, loadAiConfig } from '../config/ai.config.js';
import { ModelRouter } from '../models/model-router.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { CompletionsController } from './completions.controller.js';
import { CompletionsHandler } from './completions.handler.js';
import { CompletionsService } from './completions.service.js';

/** Generate, chat, embeddings and the model list, over HTTP and NATS. */
@Module({
  imports: [ProvidersModule, UsageOutboxModule],
  controllers: [CompletionsController, CompletionsHandler],
  providers: [{ provide: AI_CONFIG, useFactory: () => loadAiConfig() }, ModelRouter, CompletionsService],
  exports: [AI_CONFIG, ModelRouter, CompletionsService],
})
export class CompletionsModule {}
