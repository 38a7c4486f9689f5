import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@platform/common';
import { Bus, messageContext, RunSubjects } from '@platform/messaging';
import { DashboardsService } from '../dashboards/dashboards.service.js';
import { EmbedAccess, type EmbedGrant } from '../embeds/embed-access.js';
import { PortalErrors } from '../publishing/portal.errors.js';
import { PublishedWorkflowsService } from '../publishing/published-workflows.service.js';
import { formFields, readSubmission } from './form-fields.js';
import { dashboardPage, formPage, resultPage, runsPage } from './html.js';
import { SubmissionLimits } from './submission-limits.js';

/** What a view answers: a page, or a redirect after a submission; and the origins that may frame it. */
export type ViewAnswer = { status: number; html: string; frameAncestors: string[] } | { status: 303; location: string; frameAncestors: string[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const formPath = (id: string, token: string) => `/portal/public/forms/${id}?token=${encodeURIComponent(token)}`;

/** The public views: each call checks its token first, then reads only in the token's customer scope. */
@Injectable()
export class PublicViewsService {
  constructor(
    private readonly access: EmbedAccess,
    private readonly published: PublishedWorkflowsService,
    private readonly dashboards: DashboardsService,
    private readonly limits: SubmissionLimits,
    private readonly bus: Bus,
  ) {}

  async form(id: string, token: string | undefined): Promise<ViewAnswer> {
    const grant = await this.access.grant(token, 'form', id);
    const p = await this.published.get(grant.ctx, id);
    const html = formPage({
      title: p.title,
      description: p.description,
      action: formPath(id, token!),
      submissionId: randomUUID(),
      fields: formFields(p.input_form),
    });
    return { status: 200, html, frameAncestors: grant.embed.allowed_origins };
  }

  /**
   * Starts the run for the token's customer. The submission id (a hidden field of the form) is
   * the run's idempotency key: the same submission sent again answers the first run.
   */
  async submit(id: string, token: string | undefined, values: Record<string, unknown>, address: string): Promise<ViewAnswer> {
    const grant = await this.access.grant(token, 'form', id);
    await this.limits.hit({ tenantId: grant.ctx.tenantId, embedId: grant.embed.id, perMinute: grant.embed.rate_limit_per_minute }, address);
    const p = await this.published.get(grant.ctx, id);
    const submissionId = values.submission_id;
    if (typeof submissionId !== 'string' || !UUID.test(submissionId)) throw new ValidationFailedError([{ field: 'submission_id', message: 'must be a UUID' }]);
    const fields = formFields(p.input_form);
    const { input, errors } = readSubmission(fields, values);
    if (errors.length) {
      const html = formPage({ title: p.title, description: p.description, action: formPath(id, token!), submissionId, fields, values, errors });
      return { status: 400, html, frameAncestors: grant.embed.allowed_origins };
    }
    // No key started this run: it is metered by the link's data plane (the subscription service reads it), so a test key's link is sandbox usage.
    const run = await this.published.start(grant.ctx, p, input, `portal-form:${grant.embed.id}:${submissionId.toLowerCase()}`);
    return {
      status: 303,
      location: `/portal/public/forms/${id}/runs/${run.run_id}?token=${encodeURIComponent(token!)}`,
      frameAncestors: grant.embed.allowed_origins,
    };
  }

  async result(id: string, runId: string, token: string | undefined): Promise<ViewAnswer> {
    const grant = await this.access.grant(token, 'form', id);
    const p = await this.published.get(grant.ctx, id);
    const run = await this.bus.request(RunSubjects.executionsGet, { executionId: runId }, messageContext(grant.ctx));
    // Another workflow's run of the same customer is not this form's.
    if (run.workflow_id !== undefined && run.workflow_id !== p.workflow_id) throw PortalErrors.runNotFound();
    return { status: 200, html: resultPage(p.title, run, formPath(id, token!)), frameAncestors: grant.embed.allowed_origins };
  }

  async runs(id: string, token: string | undefined): Promise<ViewAnswer> {
    const grant = await this.access.grant(token, 'runs', id);
    const p = await this.published.get(grant.ctx, id);
    const recent = await this.bus.request(RunSubjects.executionsRecent, { workflowIds: [p.workflow_id], limit: 50 }, messageContext(grant.ctx));
    return { status: 200, html: runsPage(p.title, recent.data), frameAncestors: grant.embed.allowed_origins };
  }

  async dashboard(id: string, token: string | undefined): Promise<ViewAnswer> {
    const grant: EmbedGrant = await this.access.grant(token, 'dashboard', id);
    const dashboard = await this.dashboards.get(grant.ctx, id);
    const data = await this.dashboards.data(grant.ctx, id, {});
    return { status: 200, html: dashboardPage(dashboard.name, data.widgets), frameAncestors: grant.embed.allowed_origins };
  }
}
