import { Module } from '@nestjs/common';
import { LlmModelsController } from './llm-models.controller.js';

/** `GET /catalog/llm-models`, answered by the AI runtime over NATS. */
@Module({ controllers: [LlmModelsController] })
export class LlmModelsModule {}
