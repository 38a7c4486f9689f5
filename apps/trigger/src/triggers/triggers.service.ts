import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type FieldError, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { Bus, linkWebhook, resolveWorkflow } from '@platform/messaging';
import { expressionProblem } from './input-mapper.js';
import { ListenerCache } from './listener.cache.js';
import { cronProblem, isTimeZone, nextFireAfter } from './schedule.js';
import { scheduleOf, toExecutionResponse, toTriggerResponse, type TriggerExecutionResponse, type TriggerResponse, type TriggerRow } from './trigger.record.js';
import { TriggerErrors } from './triggers.errors.js';
import { executionsRepository, triggersRepository, type TriggerFields } from './triggers.repository.js';
import type { ListTriggerExecutionsQueryDto, ListTriggersQueryDto } from './dto/trigger-query.dto.js';
import type { CreateTriggerRequestDto, UpdateTriggerRequestDto } from './dto/trigger.request.dto.js';

/** Triggers of a tenant environment: CRUD, enable/disable and their executions. */
@Injectable()
export class TriggersService {
  constructor(
    private readonly db: TenantDb,
    private readonly bus: Bus,
    private readonly listeners: ListenerCache,
  ) {}

  async create(p: Principal, dto: CreateTriggerRequestDto): Promise<TriggerResponse> {
    const now = new Date();
    const fields = this.fields(dto, null, now);
    await this.checkReferences(p, fields, null);
    const row = await this.db.run(p, (m) =>
      triggersRepository.insert(m, { tenantId: p.tenantId, environmentId: p.environmentId, scopeId: p.scopeId ?? null, id: newId() }, fields),
    );
    this.listeners.changed(p);
    return toTriggerResponse(row);
  }

  async list(p: Principal, q: ListTriggersQueryDto): Promise<Page<TriggerResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const enabled = q.status === undefined ? undefined : q.status === 'enabled';
    const rows = await this.db.run(p, (m) =>
      triggersRepository.list(m, { type: q.type, enabled, workflowId: q.workflow_id, afterId: after?.id ?? null, limit: q.limit }),
    );
    return toPage(rows, q.limit, toTriggerResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<TriggerResponse> {
    const row = await this.db.run(p, (m) => triggersRepository.get(m, id));
    if (!row) throw TriggerErrors.notFound();
    return toTriggerResponse(row);
  }

  async update(p: Principal, id: string, dto: UpdateTriggerRequestDto): Promise<TriggerResponse> {
    const updated = await this.db.run(p, async (m) => {
      const existing = await triggersRepository.get(m, id, true);
      if (!existing) throw TriggerErrors.notFound();
      const fields = this.fields(dto, existing, new Date());
      await this.checkReferences(p, fields, existing);
      const row = await triggersRepository.replace(m, id, fields);
      if (!row) throw TriggerErrors.notFound();
      return toTriggerResponse(row);
    });
    this.listeners.changed(p);
    return updated;
  }

  /** Takes the row lock the scheduler's claim takes: once this commits, no replica fires it. */
  async setEnabled(p: Principal, id: string, enabled: boolean): Promise<TriggerResponse> {
    const changed = await this.db.run(p, async (m) => {
      const existing = await triggersRepository.get(m, id, true);
      if (!existing) throw TriggerErrors.notFound();
      if (existing.enabled === enabled) return toTriggerResponse(existing);
      const fields = this.fields({ enabled }, existing, new Date());
      const row = await triggersRepository.replace(m, id, fields);
      if (!row) throw TriggerErrors.notFound();
      return toTriggerResponse(row);
    });
    this.listeners.changed(p);
    return changed;
  }

  async delete(p: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(p, (m) => triggersRepository.delete(m, id));
    if (!deleted) throw TriggerErrors.notFound();
    this.listeners.changed(p);
  }

  async executions(p: Principal, id: string, q: ListTriggerExecutionsQueryDto): Promise<Page<TriggerExecutionResponse>> {
    const before = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, async (m) => {
      if (!(await triggersRepository.get(m, id))) throw TriggerErrors.notFound();
      return executionsRepository.list(m, id, { status: q.status, beforeId: before?.id ?? null, limit: q.limit });
    });
    return toPage(rows, q.limit, toExecutionResponse, (r) => ({ id: r.id }));
  }

  /**
   * The workflow and webhook a trigger points at must be the caller's (checked with their owners
   * when they are new or changed): an unknown or foreign one is a 400 naming the field.
   */
  private async checkReferences(p: Principal, f: TriggerFields, existing: TriggerRow | null): Promise<void> {
    if (f.workflowId !== existing?.workflow_id) await resolveWorkflow(this.bus, p, f.workflowId);
    if (f.type === 'webhook' && f.webhookId && (f.webhookId !== existing?.webhook_id || existing.type !== 'webhook'))
      await linkWebhook(this.bus, p, f.webhookId);
  }

  /**
   * The stored fields from a request (over the existing row for an update), validated as a whole:
   * each type's required part, a cron croner accepts, a known time zone, expressions that compile.
   * The schedule restarts from now whenever it changes or the trigger is enabled again.
   */
  private fields(dto: Partial<CreateTriggerRequestDto>, existing: TriggerRow | null, now: Date): TriggerFields {
    const problems: FieldError[] = [];
    const type = dto.type ?? existing?.type ?? 'schedule';
    const s = dto.schedule;
    const f: TriggerFields = {
      name: dto.name ?? existing?.name ?? '',
      workflowId: dto.workflow_id ?? existing?.workflow_id ?? '',
      type,
      enabled: dto.enabled ?? existing?.enabled ?? true,
      input: dto.input !== undefined ? dto.input : (existing?.input ?? null),
      cron: s ? (s.cron ?? null) : (existing?.cron ?? null),
      intervalSeconds: s ? (s.interval_seconds ?? null) : (existing?.interval_seconds ?? null),
      timezone: s ? (s.timezone ?? 'UTC') : (existing?.timezone ?? null),
      startAt: s ? (s.start_at ? new Date(s.start_at) : null) : (existing?.start_at ?? null),
      endAt: s ? (s.end_at ? new Date(s.end_at) : null) : (existing?.end_at ?? null),
      misfire: s ? (s.misfire ?? 'fire_once') : (existing?.misfire ?? null),
      eventType: dto.event ? dto.event.type : (existing?.event_type ?? null),
      eventFilter: dto.event ? (dto.event.filter ?? null) : (existing?.event_filter ?? null),
      webhookId: dto.webhook_id ?? existing?.webhook_id ?? null,
      nextFireAt: null,
    };
    if (f.input !== null && (Array.isArray(f.input) || (typeof f.input !== 'string' && typeof f.input !== 'object')))
      problems.push({ field: 'input', message: 'must be an object or a JSONata expression string' });
    else if (typeof f.input === 'string') {
      const problem = expressionProblem(f.input);
      if (problem) problems.push({ field: 'input', message: `is not a valid JSONata expression: ${problem}` });
    }
    if (type === 'schedule') {
      if (!f.cron && !f.intervalSeconds)
        problems.push({ field: existing || s ? 'schedule.cron' : 'schedule', message: 'a schedule trigger needs schedule.cron or schedule.interval_seconds' });
      if (f.cron && f.intervalSeconds) problems.push({ field: 'schedule.interval_seconds', message: 'give either cron or interval_seconds, not both' });
      if (f.cron) {
        const problem = cronProblem(f.cron);
        if (problem) problems.push({ field: 'schedule.cron', message: problem });
      }
      if (f.timezone && !isTimeZone(f.timezone)) problems.push({ field: 'schedule.timezone', message: 'is not an IANA time zone name' });
      if (f.startAt && f.endAt && f.endAt <= f.startAt) problems.push({ field: 'schedule.end_at', message: 'must be after start_at' });
    } else if (type === 'event') {
      if (!f.eventType) problems.push({ field: 'event', message: 'an event trigger needs event.type' });
      if (f.eventFilter) {
        const problem = expressionProblem(f.eventFilter);
        if (problem) problems.push({ field: 'event.filter', message: `is not a valid JSONata expression: ${problem}` });
      }
    } else if (!f.webhookId) problems.push({ field: 'webhook_id', message: 'a webhook trigger needs webhook_id' });
    if (problems.length) throw TriggerErrors.invalid(problems);

    if (type === 'schedule' && f.enabled) {
      const unchanged = existing && existing.enabled && !s && existing.next_fire_at;
      f.nextFireAt = unchanged
        ? existing.next_fire_at
        : nextFireAfter(
            scheduleOf({
              cron: f.cron,
              interval_seconds: f.intervalSeconds,
              timezone: f.timezone,
              start_at: f.startAt,
              end_at: f.endAt,
              created_at: existing?.created_at ?? now,
            }),
            now,
          );
    }
    return f;
  }
}
