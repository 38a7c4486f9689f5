import { Injectable } from '@nestjs/common';
import { decodeCursor, newId, NotFoundError, toPage, ValidationFailedError, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { AiRuntimeSubjects, Bus, messageContext, type AgentConfig, type AgentTool } from '@platform/messaging';
import { toAgentConfig } from './ai-agent.record.js';
import { aiAgentsRepository } from './ai-agents.repository.js';
import type { AgentToolDto, CreateAiAgentRequestDto, UpdateAiAgentRequestDto } from './dto/ai-agent.request.dto.js';

const REQUIRED: Record<AgentTool['type'], (keyof AgentToolDto)[]> = {
  workflow: ['workflow_id'],
  knowledge_base: ['knowledge_base_id'],
  connector: ['operation_id'],
};

const notFound = () => new NotFoundError('AI agent');
const invalid = (field: string, message: string) => new ValidationFailedError([{ field, message }]);

/** AI agent configurations: the model, its instructions and its tools. The AI runtime runs them. */
@Injectable()
export class AiAgentsService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
  ) {}

  async create(ctx: TenantContext, dto: CreateAiAgentRequestDto): Promise<AgentConfig> {
    const tools = checkTools(dto.tools ?? []);
    await this.checkModel(ctx, dto.model);
    const row = await this.db.run(ctx, (m) =>
      aiAgentsRepository.insert(
        m,
        { tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: ctx.scopeId ?? null, id: newId() },
        {
          name: dto.name,
          description: dto.description ?? null,
          model: dto.model,
          instructions: dto.instructions,
          tools,
          maxSteps: dto.max_steps ?? null,
          timeBudgetSeconds: dto.time_budget_seconds ?? null,
        },
      ),
    );
    return toAgentConfig(row);
  }

  async list(ctx: TenantContext, q: { cursor?: string; limit: number }): Promise<Page<AgentConfig>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(ctx, (m) => aiAgentsRepository.list(m, after?.id ?? null, q.limit));
    return toPage(rows, q.limit, toAgentConfig, (r) => ({ id: r.id }));
  }

  async get(ctx: TenantContext, id: string): Promise<AgentConfig> {
    const row = await this.db.run(ctx, (m) => aiAgentsRepository.get(m, id));
    if (!row) throw notFound();
    return toAgentConfig(row);
  }

  async update(ctx: TenantContext, id: string, dto: UpdateAiAgentRequestDto): Promise<AgentConfig> {
    const tools = dto.tools ? checkTools(dto.tools) : undefined;
    if (dto.model) await this.checkModel(ctx, dto.model);
    const row = await this.db.run(ctx, (m) =>
      aiAgentsRepository.update(m, id, {
        name: dto.name,
        description: dto.description,
        model: dto.model,
        instructions: dto.instructions,
        tools,
        maxSteps: dto.max_steps,
        timeBudgetSeconds: dto.time_budget_seconds,
      }),
    );
    if (!row) throw notFound();
    return toAgentConfig(row);
  }

  async delete(ctx: TenantContext, id: string): Promise<void> {
    if (!(await this.db.run(ctx, (m) => aiAgentsRepository.delete(m, id)))) throw notFound();
  }

  private async checkModel(ctx: TenantContext, model: string): Promise<void> {
    const models = await this.bus.request(AiRuntimeSubjects.modelsList, { kind: 'chat' }, messageContext(ctx), { timeoutMs: 10_000 });
    if (!models.data.some((m) => m.id === model)) throw invalid('model', `${model} is not a chat model of this tenant (GET /catalog/llm-models)`);
  }
}

/** Each tool has what its type needs, and names are unique (the model calls tools by name). */
function checkTools(tools: AgentToolDto[]): AgentTool[] {
  const names = new Set<string>();
  return tools.map((tool, i) => {
    if (names.has(tool.name)) throw invalid(`tools[${i}].name`, 'must be unique among the tools');
    names.add(tool.name);
    for (const field of REQUIRED[tool.type]) if (tool[field] === undefined) throw invalid(`tools[${i}].${field}`, `is required for a ${tool.type} tool`);
    if (tool.type === 'connector' && !tool.connection_id === !tool.customer_connection)
      throw invalid(`tools[${i}].connection_id`, 'give exactly one of connection_id and customer_connection');
    return Object.fromEntries(Object.entries(tool).filter(([, v]) => v !== undefined)) as unknown as AgentTool;
  });
}
