import { Injectable } from '@nestjs/common';
import type { TenantContext } from '@platform/db';
import {
  Bus,
  BusError,
  ConnectionSubjects,
  KbWorkerSubjects,
  RunSubjects,
  isFinished,
  messageContext,
  type AgentTool,
  type ToolDefinition,
} from '@platform/messaging';

const FREE_OBJECT = { type: 'object', additionalProperties: true };

/** A tool call that did not produce a result; its message goes back to the model as the tool's answer. */
export class ToolFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The function the model sees for a tool. */
export function toolDefinition(tool: AgentTool): ToolDefinition {
  const parameters =
    tool.type === 'knowledge_base'
      ? { type: 'object', properties: { query: { type: 'string', description: 'What to look for' } }, required: ['query'] }
      : (tool.parameters ?? FREE_OBJECT);
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

/**
 * Runs agents' tools with the caller's tenant and customer: workflows through the run service
 * (started, then awaited until they end or the run's time budget does), knowledge-base queries
 * through the KB worker, connector operations through the connection service. Approval, for the
 * tools that need it, happens before (AgentLoop): a call that gets here is one to make.
 */
@Injectable()
export class AgentTools {
  constructor(private readonly bus: Bus) {}

  async call(ctx: TenantContext, runId: string, tool: AgentTool, args: Record<string, unknown>, deadline: number): Promise<unknown> {
    const message = messageContext(ctx, { actor: `ai:agent-run:${runId}` });
    const timeoutMs = Math.max(1000, deadline - Date.now());
    try {
      switch (tool.type) {
        case 'knowledge_base': {
          if (typeof args.query !== 'string' || !args.query.trim()) throw new ToolFailure('invalid_arguments', 'query (a non-empty string) is required');
          const result = await this.bus.request(
            KbWorkerSubjects.query,
            { knowledgeBaseId: tool.knowledge_base_id!, query: args.query, topK: tool.top_k ?? 4 },
            message,
            { timeoutMs },
          );
          return { chunks: result.chunks.map((c) => ({ document_id: c.document_id, document_name: c.document_name, text: c.text, score: c.score })) };
        }
        case 'workflow':
          return await this.workflow(message, runId, tool.workflow_id!, args, deadline);
        case 'connector':
          return await this.bus.request(
            ConnectionSubjects.operationsExecute,
            { connectionId: tool.connection_id, customerConnection: tool.customer_connection, operationId: tool.operation_id!, input: args },
            message,
            { timeoutMs },
          );
      }
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      if (error instanceof BusError) throw new ToolFailure(error.remote?.code ?? error.code, error.remote?.message ?? error.message);
      throw new ToolFailure('tool_failed', (error as Error).message);
    }
  }

  private async workflow(
    message: ReturnType<typeof messageContext>,
    runId: string,
    workflowId: string,
    input: Record<string, unknown>,
    deadline: number,
  ): Promise<unknown> {
    const started = await this.bus.request(RunSubjects.executionsStart, { workflowId, input, trigger: { type: 'api', id: `agent-run:${runId}` } }, message, {
      timeoutMs: 15_000,
    });
    while (Date.now() < deadline) {
      const execution = await this.bus.request(RunSubjects.executionsGet, { executionId: started.runId }, message, { timeoutMs: 10_000 });
      if (isFinished(execution.status)) return { execution_id: execution.id, status: execution.status, output: execution.output, error: execution.error };
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new ToolFailure('time_budget', `workflow execution ${started.runId} had not finished when the agent's time budget ran out`);
  }
}
