import { Module } from '@nestjs/common';
import { CompletionsModule } from '../completions/completions.module.js';
import { AgentLoop } from './agent-loop.js';
import { AgentRunner } from './agent-runner.service.js';
import { AgentTools } from './agent-tools.js';
import { AgentsController } from './agents.controller.js';
import { AgentsHandler } from './agents.handler.js';
import { ApprovalOutcomesWorker } from './approval-outcomes.worker.js';
import { ApprovalRequests } from './approval-requests.js';

/** AI agents: the tool-calling loop, its tools, approvals through the task service, and the run records. */
@Module({
  imports: [CompletionsModule],
  controllers: [AgentsController, AgentsHandler],
  providers: [AgentTools, AgentLoop, ApprovalRequests, AgentRunner, ApprovalOutcomesWorker],
})
export class AgentsModule {}
