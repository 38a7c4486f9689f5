import { Body, Controller, Get, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import type { CreatedWorkflow } from '@platform/messaging';
import { ApiPageResponse, ApiTag } from '@platform/service';
import type { WorkflowTemplate } from './builtin-templates.js';
import { InstantiateTemplateRequestDto, ListTemplatesQueryDto, TemplateResponseDto, TemplateSummaryDto } from './dto/template.dto.js';
import { TemplatesService, type TemplateSummary } from './templates.service.js';

/** Workflow templates: ready-made workflows over catalog connectors. */
@ApiTag('catalog', 'Connectors, workflow templates and the marketplace: what workflows can talk to and start from.')
@Controller('catalog/templates')
export class TemplatesController {
  constructor(private readonly templates: TemplatesService) {}

  @Get()
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'List workflow templates', description: 'Filters: `q` (words), `category`, `connector`.' })
  @ApiPageResponse(TemplateSummaryDto)
  list(@Query() q: ListTemplatesQueryDto): Page<TemplateSummary> {
    return this.templates.list(q);
  }

  @Get(':id')
  @RequireScopes('workflows:read')
  @ApiOperation({ summary: 'Get a workflow template', description: 'The template with the workflow definition it creates.' })
  @ApiOkResponse({ type: TemplateResponseDto })
  @ApiNotFoundResponse({ description: 'No such template' })
  @ApiParam({
    name: 'id',
    description: "The template's id: a slug, not a UUID",
    schema: { type: 'string', minLength: 1, maxLength: 200, example: 'github-issue-to-slack' },
  })
  get(@Param('id') id: string): WorkflowTemplate {
    return this.templates.get(id);
  }

  @Post(':id/instantiate')
  @RequireScopes('workflows:write')
  @ApiOperation({
    summary: 'Instantiate a workflow template',
    description:
      "Creates the template's workflow in the caller's environment (checked like POST /api/v1/workflow/workflows) and answers it. `connections` pins a connection per connector; the others resolve per run to the customer's own connection.",
  })
  @ApiCreatedResponse({ description: 'The created workflow (as GET /api/v1/workflow/workflows/{id} answers it)' })
  @ApiParam({
    name: 'id',
    description: "The template's id: a slug, not a UUID",
    schema: { type: 'string', minLength: 1, maxLength: 200, example: 'github-issue-to-slack' },
  })
  instantiate(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: InstantiateTemplateRequestDto): Promise<CreatedWorkflow> {
    return this.templates.instantiate(p, id, body);
  }
}
