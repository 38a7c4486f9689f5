import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, ValidationFailedError, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { Bus, messageContext, RunSubjects, SubscriptionSubjects, TaskSubjects } from '@platform/messaging';
import { PortalErrors } from '../publishing/portal.errors.js';
import { dashboardsRepository, type DashboardRow } from './dashboards.repository.js';
import type { CreateDashboardRequestDto, DashboardDataQueryDto, UpdateDashboardRequestDto, WidgetRequestDto } from './dto/dashboard.request.dto.js';
import type { DashboardDataResponse, DashboardResponse } from './dto/dashboard.response.dto.js';
import { DEFAULT_TITLES, widgetData, type Widget } from './widgets.js';

const DAY_MS = 86_400_000;
const MAX_PERIOD_DAYS = 366;

const toResponse = (row: DashboardRow): DashboardResponse => ({
  ...row,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

const toWidgets = (widgets: WidgetRequestDto[]): Widget[] =>
  widgets.map((w) => ({ id: newId(), type: w.type, title: w.title ?? DEFAULT_TITLES[w.type], limit: w.limit ?? 5 }));

/** Dashboards the tenant defines; their numbers come from the run and task services, confined to the caller's scope. */
@Injectable()
export class DashboardsService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
  ) {}

  async create(p: Principal, body: CreateDashboardRequestDto): Promise<DashboardResponse> {
    if (p.scopeId) throw PortalErrors.forbidden();
    const row = await this.db.run(p, (m) =>
      dashboardsRepository.insert(m, p.tenantId, p.environmentId, {
        id: newId(),
        name: body.name,
        description: body.description ?? null,
        widgets: toWidgets(body.widgets),
      }),
    );
    return toResponse(row);
  }

  async list(p: Principal, query: { limit: number; cursor?: string }): Promise<Page<DashboardResponse>> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) => dashboardsRepository.list(m, after?.id ?? null, query.limit));
    return toPage(rows, query.limit, toResponse, (r) => ({ id: r.id }));
  }

  async get(ctx: TenantContext, id: string): Promise<DashboardResponse> {
    const row = await this.db.run(ctx, (m) => dashboardsRepository.get(m, id));
    if (!row) throw PortalErrors.dashboardNotFound();
    return toResponse(row);
  }

  async update(p: Principal, id: string, body: UpdateDashboardRequestDto): Promise<DashboardResponse> {
    if (p.scopeId) throw PortalErrors.forbidden();
    const row = await this.db.run(p, (m) =>
      dashboardsRepository.update(m, id, { name: body.name, description: body.description, widgets: body.widgets ? toWidgets(body.widgets) : undefined }),
    );
    if (!row) throw PortalErrors.dashboardNotFound();
    return toResponse(row);
  }

  async delete(p: Principal, id: string): Promise<void> {
    if (p.scopeId) throw PortalErrors.forbidden();
    if (!(await this.db.run(p, (m) => dashboardsRepository.delete(m, id)))) throw PortalErrors.dashboardNotFound();
  }

  /** A customer-scoped caller sees only its own numbers: the run and task services apply its scope. */
  async data(ctx: TenantContext, id: string, q: DashboardDataQueryDto): Promise<DashboardDataResponse> {
    const to = q.to ? new Date(q.to) : new Date();
    const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * DAY_MS);
    if (!(from < to)) throw new ValidationFailedError([{ field: 'from', message: 'must be before to' }]);
    if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS)
      throw new ValidationFailedError([{ field: 'from', message: `the period is at most ${MAX_PERIOD_DAYS} days` }]);
    const dashboard = await this.get(ctx, id);
    const customerId = ctx.scopeId ?? q.customer_id ?? null;
    const top = Math.max(5, ...dashboard.widgets.map((w) => w.limit));
    const wants = (type: Widget['type']) => dashboard.widgets.some((w) => w.type === type);
    const scoped = customerId ? { customerId } : {};
    const [report, open, usage] = await Promise.all([
      this.bus.request(
        RunSubjects.executionsReport,
        { from: from.toISOString(), to: to.toISOString(), top, ...(customerId ? { customerId } : {}) },
        messageContext(ctx),
      ),
      wants('open_tasks') ? this.bus.request(TaskSubjects.tasksCountOpen, scoped, messageContext(ctx)) : Promise.resolve(null),
      wants('usage_quota') ? this.bus.request(SubscriptionSubjects.usageGet, scoped, messageContext(ctx)) : Promise.resolve(null),
    ]);
    return {
      dashboard_id: dashboard.id,
      from: from.toISOString(),
      to: to.toISOString(),
      customer_id: customerId,
      widgets: dashboard.widgets.map((w) => ({
        id: w.id,
        type: w.type,
        title: w.title,
        data: widgetData(w, { report, openTasks: open?.open ?? null, usage }),
      })),
    };
  }
}
