import { Body, Controller, Delete, Get, Headers, HttpCode, Param, ParseUUIDPipe, Patch, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiCreatedResponse, ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag } from '@platform/service';
import {
  ListPublishedWorkflowsQueryDto,
  PublishWorkflowRequestDto,
  RunPublishedWorkflowRequestDto,
  UpdatePublishedWorkflowRequestDto,
} from './dto/published-workflow.request.dto.js';
import {
  PUBLISHED_EXAMPLE,
  PortalRunResponseDto,
  PublishedWorkflowResponseDto,
  type PublishedWorkflowResponse,
} from './dto/published-workflow.response.dto.js';
import { PublishedWorkflowsService } from './published-workflows.service.js';

/** Workflows the tenant offers its customers: a tenant key manages them, a customer key sees and runs what is published to it. */
@ApiTag('published workflows', 'Workflows published to customers: what a customer key may list and run, with the form it fills in.')
@Controller('portal/workflows')
export class PublishedWorkflowsController {
  constructor(private readonly published: PublishedWorkflowsService) {}

  @Post()
  @RequireScopes('portal:write')
  @ApiOperation({
    summary: 'Publish a workflow',
    description: 'Offers a workflow of the tenant to all customers or to the customers named. Tenant callers only.',
  })
  @ApiCreatedResponse({ type: PublishedWorkflowResponseDto, example: PUBLISHED_EXAMPLE })
  publish(@CurrentPrincipal() p: Principal, @Body() body: PublishWorkflowRequestDto): Promise<PublishedWorkflowResponse> {
    return this.published.publish(p, body);
  }

  @Get()
  @RequireScopes('portal:read')
  @ApiOperation({
    summary: 'List published workflows',
    description: 'For a tenant key everything published; for a customer key (or X-Scope-Key) only what that customer may run.',
  })
  @ApiPageResponse(PublishedWorkflowResponseDto, { example: { data: [PUBLISHED_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() query: ListPublishedWorkflowsQueryDto): Promise<Page<PublishedWorkflowResponse>> {
    return this.published.list(p, query);
  }

  @Get(':id')
  @RequireScopes('portal:read')
  @ApiOperation({ summary: 'Get a published workflow', description: 'A publication the caller may see (404 otherwise, as for an unknown id).' })
  @ApiOkResponse({ type: PublishedWorkflowResponseDto, example: PUBLISHED_EXAMPLE })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<PublishedWorkflowResponse> {
    return this.published.get(p, id);
  }

  @Patch(':id')
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Change a published workflow', description: 'Changes the fields sent. Tenant callers only.' })
  @ApiOkResponse({ type: PublishedWorkflowResponseDto, example: PUBLISHED_EXAMPLE })
  update(
    @CurrentPrincipal() p: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: UpdatePublishedWorkflowRequestDto,
  ): Promise<PublishedWorkflowResponse> {
    return this.published.update(p, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  @RequireScopes('portal:write')
  @ApiOperation({ summary: 'Unpublish a workflow', description: 'The workflow itself stays; customers no longer see or run it. Tenant callers only.' })
  @ApiNoContentResponse({ description: 'Unpublished' })
  async delete(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<void> {
    await this.published.delete(p, id);
  }

  @Post(':id/run')
  @HttpCode(202)
  @RequireScopes('automations:run')
  @ApiOperation({
    summary: 'Run a published workflow for a customer',
    description:
      "Starts the workflow in the customer's own scope: the execution belongs to the customer (its key lists it under /run/executions) and connector steps use the customer's own connections.",
  })
  @ApiHeader({ name: 'Idempotency-Key', required: false, description: 'The same key returns the first run instead of starting another' })
  @ApiAcceptedResponse({
    type: PortalRunResponseDto,
    example: { run_id: '0194f1c2-0000-7000-8000-00000000e001', status: 'queued', customer_id: '0194f1c2-0000-7000-8000-0000000000c1' },
  })
  run(
    @CurrentPrincipal() p: Principal,
    @Param('id', new ParseUUIDPipe()) id: string,
    @Body() body: RunPublishedWorkflowRequestDto,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<{ run_id: string; status: string; customer_id: string }> {
    return this.published.run(p, id, body, idempotencyKey);
  }
}
