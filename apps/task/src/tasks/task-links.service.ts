import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { newId } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import type { TaskDecision } from '@platform/messaging';
import { TASK_CONFIG, type TaskConfig } from '../config/task.config.js';
import { CompletionService, type Decision } from './completion.service.js';
import { LinkSigner, type LinkClaims } from './link-token.js';
import { decisionsOf, type TaskRow } from './task.record.js';
import { TaskErrors } from './tasks.errors.js';
import { linksRepository, tasksRepository, type LinkRow } from './tasks.repository.js';
import type { PublicTaskResponse, TaskLinkResponse } from './dto/task.response.dto.js';
import type { CreateTaskLinkRequestDto } from './dto/task.request.dto.js';

const contextOf = (c: LinkClaims): TenantContext => ({ tenantId: c.t, environmentId: c.e, scopeId: c.s });

/**
 * Links for people without an account: a signed token (tenant, task, link id, decisions,
 * expiry) whose link row makes it single use. GET shows the task and changes nothing (mail
 * scanners follow links); POST decides once, in the same transaction that marks the link used.
 */
@Injectable()
export class TaskLinksService {
  constructor(
    private readonly db: TenantDb,
    private readonly signer: LinkSigner,
    private readonly completion: CompletionService,
    @Inject(TASK_CONFIG) private readonly config: TaskConfig,
  ) {}

  async create(p: Principal, taskId: string, dto: CreateTaskLinkRequestDto): Promise<TaskLinkResponse> {
    const id = newId();
    const expiresAt = new Date(Date.now() + (dto.expires_in_seconds ?? this.config.TASK_LINK_TTL_SECONDS) * 1000);
    const { task, decisions } = await this.db.run(p, async (m) => {
      const found = await tasksRepository.get(m, taskId);
      if (!found) throw TaskErrors.notFound();
      if (found.status !== 'pending') throw TaskErrors.notOpen(found.status);
      const allowed = decisionsOf(found.type);
      const chosen = dto.decisions ? [...new Set(dto.decisions)] : allowed;
      if (chosen.some((d) => !allowed.includes(d))) throw TaskErrors.wrongLinkDecisions(allowed);
      await linksRepository.insert(m, { ...p, scopeId: found.scope_id, id, taskId, decisions: chosen, expiresAt, createdBy: p.subject });
      return { task: found, decisions: chosen };
    });
    const token = this.signer.sign({
      t: task.tenant_id,
      e: task.environment_id,
      s: task.scope_id,
      k: task.id,
      l: id,
      d: decisions,
      x: Math.floor(expiresAt.getTime() / 1000),
    });
    return { url: `/tasks/public/${token}`, token, task_id: task.id, decisions, expires_at: expiresAt.toISOString() };
  }

  /** What the person sees; reads only. */
  async show(token: string): Promise<PublicTaskResponse> {
    const claims = this.claims(token);
    return this.db.run(contextOf(claims), async (m) => {
      const link = await linksRepository.get(m, claims.l);
      const task = await tasksRepository.get(m, claims.k);
      this.usable(claims, link, task);
      return {
        task_id: task!.id,
        type: task!.type,
        title: task!.title,
        description: task!.description,
        form: task!.form,
        context: task!.context,
        decisions: claims.d,
        expires_at: new Date(claims.x * 1000).toISOString(),
      };
    });
  }

  async submit(token: string, d: Decision): Promise<{ task_id: string; status: string; decision: TaskDecision; data: unknown }> {
    const claims = this.claims(token);
    if (!claims.d.includes(d.decision)) throw TaskErrors.wrongDecision(claims.d);
    const done = await this.completion.decide(contextOf(claims), claims.k, d, `link:${claims.l}`, async (m, task) => {
      const link = await linksRepository.get(m, claims.l, true);
      this.usable(claims, link, task);
      if (!(await linksRepository.use(m, claims.l))) throw TaskErrors.linkUsed();
    });
    return { task_id: done.id, status: done.status, decision: done.decision!, data: done.data };
  }

  private claims(token: string): LinkClaims {
    const claims = this.signer.verify(token);
    if (!claims) throw TaskErrors.linkInvalid();
    return claims;
  }

  /** Bound to one task; refused once used, expired, or once the task is no longer open. */
  private usable(claims: LinkClaims, link: LinkRow | undefined, task: TaskRow | undefined): void {
    if (!link || !task || link.task_id !== claims.k || task.id !== claims.k) throw TaskErrors.linkInvalid();
    if (link.used_at) throw TaskErrors.linkUsed();
    if (claims.x * 1000 <= Date.now() || link.expires_at.getTime() <= Date.now()) throw TaskErrors.linkExpired();
    if (task.status !== 'pending') throw TaskErrors.notOpen(task.status);
  }
}
