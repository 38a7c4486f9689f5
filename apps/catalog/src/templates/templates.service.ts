import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { AppError, decodeCursor, isUuid, NotFoundError, toPage, ValidationFailedError, type Page } from '@platform/common';
import { Bus, downstreamRefusal, messageContext, RunSubjects, type CreatedWorkflow } from '@platform/messaging';
import { BUILT_IN_TEMPLATES, type WorkflowTemplate } from './builtin-templates.js';
import type { InstantiateTemplateRequestDto, ListTemplatesQueryDto } from './dto/template.dto.js';

export type TemplateSummary = Omit<WorkflowTemplate, 'workflow'>;

/** Workflow templates, and their instantiation as a workflow of the tenant (through the run service). */
@Injectable()
export class TemplatesService {
  constructor(private readonly bus: Bus) {}

  list(q: ListTemplatesQueryDto): Page<TemplateSummary> {
    // Named for this list: another list's cursor ({ id }) is refused, not read as a template id.
    const after = decodeCursor(q.cursor, { template: 'text' });
    const words = (q.q ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    const rows = [...BUILT_IN_TEMPLATES]
      .sort((a, b) => a.id.localeCompare(b.id))
      .filter((t) => !q.category || t.categories.includes(q.category))
      .filter((t) => !q.connector || t.connectors.includes(q.connector))
      .filter((t) => words.every((w) => `${t.id} ${t.name} ${t.description}`.toLowerCase().includes(w)))
      .filter((t) => !after || t.id > after.template)
      .slice(0, q.limit + 1);
    return toPage(rows, q.limit, summary, (t) => ({ template: t.id }));
  }

  get(id: string): WorkflowTemplate {
    const found = BUILT_IN_TEMPLATES.find((t) => t.id === id);
    if (!found) throw new NotFoundError('Template');
    return found;
  }

  async instantiate(p: Principal, id: string, dto: InstantiateTemplateRequestDto): Promise<CreatedWorkflow> {
    const template = this.get(id);
    const connections = dto.connections ?? {};
    for (const [connector, connectionId] of Object.entries(connections)) {
      if (!template.connectors.includes(connector))
        throw new ValidationFailedError([{ field: `connections.${connector}`, message: `is not a connector of ${id}` }]);
      if (!isUuid(connectionId)) throw new ValidationFailedError([{ field: `connections.${connector}`, message: 'must be a connection id (UUID)' }]);
    }
    const steps = template.workflow.steps.map((step) => pin(step, connections));
    try {
      return await this.bus.request(
        RunSubjects.workflowsCreate,
        { name: dto.name ?? template.name, description: template.workflow.description, steps, input_schema: template.workflow.input_schema ?? null },
        messageContext(p),
        { timeoutMs: 10_000 },
      );
    } catch (error) {
      const refusal = downstreamRefusal(error);
      if (refusal) throw refusal;
      throw new AppError('run_unavailable', 503, 'The run service did not answer');
    }
  }
}

/** A connector step given a connection for its connector: `customer_connection` becomes that `connection_id`. */
function pin(step: Record<string, unknown>, connections: Record<string, string>): Record<string, unknown> {
  const input = step.input as Record<string, unknown> | undefined;
  const connector = input?.customer_connection;
  if (step.type !== 'connector' || typeof connector !== 'string' || !connections[connector]) return step;
  const { customer_connection: _, ...rest } = input!;
  return { ...step, input: { connection_id: connections[connector], ...rest } };
}

function summary(t: WorkflowTemplate): TemplateSummary {
  const { workflow: _, ...rest } = t;
  return rest;
}
