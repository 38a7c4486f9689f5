import { Controller, Get, Inject, Logger, Param, ParseUUIDPipe, Post, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@platform/auth';
import { TooManyRequestsError, type ServiceConfig } from '@platform/common';
import { AcceptsContentTypes, ApiTag, resolveError, SERVICE_CONFIG } from '@platform/service';
import { errorPage } from './html.js';
import { PublicViewsService, type ViewAnswer } from './public-views.service.js';
import { clientAddress, readFormBody } from './request-reading.js';

const TOKEN = { name: 'token', required: true, description: 'The embed token (from POST /portal/embed) bound to this view, its customer and target' };
const PAGE = {
  status: 200,
  description: 'An HTML page',
  content: {
    'text/html': {
      schema: { type: 'string' },
      example: '<!doctype html><html lang="en">…<main><h1>Request a quote</h1><form method="post">…</form></main></html>',
    },
  },
};
const REFUSED = { status: 401, description: 'Missing, malformed, tampered, expired or revoked token (an HTML page)' };
const WRONG = { status: 403, description: 'A token made for another view or target (an HTML page)' };

/**
 * The public class: the embed token is the only credential. Plain server-rendered HTML (no
 * scripts); every answer carries `Content-Security-Policy: frame-ancestors` from the token's
 * allowed origins (`'none'` without any), and never leaks the token onward (no referrer).
 */
@ApiTag('embedded views', 'Public pages behind embed tokens: a form, a customer’s runs, a dashboard.')
@Controller('portal/public')
export class PublicViewsController {
  private readonly logger = new Logger(PublicViewsController.name);

  constructor(
    private readonly views: PublicViewsService,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  @Get('forms/:id')
  @Public()
  @ApiOperation({ summary: "A published workflow's form", description: 'Renders the form of the published workflow the token is for.' })
  @ApiParam({ name: 'id', description: 'The published workflow' })
  @ApiQuery(TOKEN)
  @ApiProduces('text/html')
  @ApiResponse(PAGE)
  @ApiResponse(REFUSED)
  @ApiResponse(WRONG)
  async form(@Param('id', new ParseUUIDPipe()) id: string, @Query('token') token: string | undefined, @Res() res: Response): Promise<void> {
    await this.send(res, () => this.views.form(id, token));
  }

  @Post('forms/:id')
  @Public()
  @AcceptsContentTypes('application/x-www-form-urlencoded')
  @ApiOperation({
    summary: 'Submit a form',
    description:
      "Starts the run for the token's customer and redirects (303) to its result page. `submission_id` (a hidden field) makes a resend answer the first run. Limited per token and per client address: 429 with Retry-After.",
  })
  @ApiQuery(TOKEN)
  @ApiResponse({ status: 303, description: 'To the run’s result page' })
  @ApiResponse({ status: 400, description: 'The form again, with the fields to correct' })
  @ApiResponse(REFUSED)
  @ApiResponse({ status: 413, description: 'A submission over 64 KiB (an HTML page)' })
  @ApiResponse({ status: 429, description: 'Too many submissions (Retry-After)' })
  async submit(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Query('token') token: string | undefined,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    await this.send(res, async () => this.views.submit(id, token, await readFormBody(req, this.config.BODY_LIMIT_BYTES), clientAddress(req)));
  }

  @Get('forms/:id/runs/:runId')
  @Public()
  @ApiOperation({ summary: "A form submission's result", description: 'The run’s status, then its output; refreshes itself until the run has finished.' })
  @ApiQuery(TOKEN)
  @ApiProduces('text/html')
  @ApiResponse(PAGE)
  @ApiResponse(REFUSED)
  async result(
    @Param('id', new ParseUUIDPipe()) id: string,
    @Param('runId', new ParseUUIDPipe()) runId: string,
    @Query('token') token: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    await this.send(res, () => this.views.result(id, runId, token));
  }

  @Get('runs/:id')
  @Public()
  @ApiOperation({ summary: "A customer's runs of a published workflow", description: 'The latest 50 runs of the token’s customer.' })
  @ApiQuery(TOKEN)
  @ApiProduces('text/html')
  @ApiResponse(PAGE)
  @ApiResponse(REFUSED)
  @ApiResponse(WRONG)
  async runs(@Param('id', new ParseUUIDPipe()) id: string, @Query('token') token: string | undefined, @Res() res: Response): Promise<void> {
    await this.send(res, () => this.views.runs(id, token));
  }

  @Get('dashboards/:id')
  @Public()
  @ApiOperation({
    summary: 'A dashboard with the customer’s numbers',
    description: 'The dashboard’s widgets over the last 30 days, for the token’s customer only.',
  })
  @ApiQuery(TOKEN)
  @ApiProduces('text/html')
  @ApiResponse(PAGE)
  @ApiResponse(REFUSED)
  @ApiResponse(WRONG)
  async dashboard(@Param('id', new ParseUUIDPipe()) id: string, @Query('token') token: string | undefined, @Res() res: Response): Promise<void> {
    await this.send(res, () => this.views.dashboard(id, token));
  }

  private async send(res: Response, view: () => Promise<ViewAnswer>): Promise<void> {
    let answer: ViewAnswer;
    try {
      answer = await view();
    } catch (error) {
      const resolved = resolveError(error);
      if (resolved.status >= 500) this.logger.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
      if (error instanceof TooManyRequestsError) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      answer = {
        status: resolved.status,
        html: errorPage(resolved.status, resolved.status >= 500 ? 'Something went wrong; please try again later.' : resolved.message),
        frameAncestors: [],
      };
    }
    const ancestors = answer.frameAncestors.length ? answer.frameAncestors.join(' ') : "'none'";
    res.setHeader(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors ${ancestors}`,
    );
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-store');
    if ('location' in answer) {
      res.status(303).setHeader('Location', answer.location).end();
      return;
    }
    res.status(answer.status).type('text/html; charset=utf-8').send(answer.html);
  }
}
