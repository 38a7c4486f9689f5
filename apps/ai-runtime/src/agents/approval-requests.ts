import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from '@nats-io/transport-node';
import type { TenantContext } from '@platform/db';
import {
  NATS_CONNECTION,
  TASK_CREATE_QUEUE,
  TaskSubjects,
  enqueueWork,
  ensureWorkQueue,
  messageContext,
  type AgentConfig,
  type AgentTool,
  type CreateTaskItem,
  type ToolCall,
} from '@platform/messaging';
import { toolDefinition } from './agent-tools.js';

/**
 * Asks the task service for the approval task of a tool call, through its JetStream work queue
 * (kept while no task replica runs). The runtime chooses the task id, so the waiting run shows it
 * at once; the message id and the task's unique key are the run and the call, so asking again
 * creates nothing. The task is tenant-wide: the tenant approves what its agents do, also for a
 * customer's run. Its form lets the approver correct the arguments and leave a comment.
 */
@Injectable()
export class ApprovalRequests implements OnApplicationBootstrap {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  async onApplicationBootstrap(): Promise<void> {
    await ensureWorkQueue(this.nc, TASK_CREATE_QUEUE);
  }

  async request(
    ctx: TenantContext,
    agent: AgentConfig,
    runId: string,
    taskId: string,
    call: ToolCall,
    tool: AgentTool,
    args: Record<string, unknown>,
  ): Promise<void> {
    const parameters = toolDefinition(tool).function.parameters ?? { type: 'object' };
    const item: CreateTaskItem = {
      agentRun: { agentRunId: runId, agentId: agent.id, toolCallId: call.id },
      taskId,
      type: 'approval',
      title: `Approve ${tool.name} for the agent ${agent.name}`.slice(0, 500),
      description: tool.description.slice(0, 10_000),
      form: {
        type: 'object',
        properties: {
          arguments: { ...parameters, description: 'The arguments the tool is called with (change them to correct the call)' },
          comment: { type: 'string', title: 'Comment (the agent sees it)', 'ui:widget': 'textarea' },
        },
      },
      context: { agent_id: agent.id, agent_name: agent.name, agent_run_id: runId, tool: tool.name, tool_type: tool.type, arguments: args },
    };
    await enqueueWork(
      this.nc,
      TaskSubjects.tasksCreate,
      item,
      `agent-approval:${runId}:${call.id}`,
      messageContext({ ...ctx, scopeId: null }, { actor: `ai:agent-run:${runId}` }),
    );
  }
}
