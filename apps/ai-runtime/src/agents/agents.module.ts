import { Module } from '@nestjs/common';
import { CompletionsModule } from '../completions/completions.module.js';
import { AgentRunner } from './agent-runner.service.js';
import { AgentTools } from './agent-tools.js';
import { AgentsController } from './agents.controller.js';
import { AgentsHandler } from './agents.handler.js';

/** AI agents: the tool-calling loop, its tools and the run records. */
@Module({ imports: [CompletionsModule], controllers: [AgentsController, AgentsHandler], providers: [AgentTools, AgentRunner] })
export class AgentsModule {}
