import { Module } from '@nestjs/common';
import { AiAgentsController } from './ai-agents.controller.js';
import { AiAgentsHandler } from './ai-agents.handler.js';
import { AiAgentsService } from './ai-agents.service.js';

/** AI agent configurations (CRUD over HTTP, reads over NATS for the AI runtime). */
@Module({ controllers: [AiAgentsController, AiAgentsHandler], providers: [AiAgentsService] })
export class AiAgentsModule {}
