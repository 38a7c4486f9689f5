import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiPageResponse, ApiTag, PageQueryDto } from '@platform/service';
import { INVOICE_EXAMPLE, InvoiceResponseDto } from './dto/invoice.response.dto.js';
import type { InvoiceResponse } from './invoice.record.js';
import { InvoicesService } from './invoices.service.js';

@ApiTag('invoices', 'Invoices: one per tenant and ended billing period, lines per metric in minor units, never changed once issued.')
@Controller('subscription/invoices')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Get()
  @RequireScopes('subscription:read')
  @ApiOperation({
    summary: 'List invoices',
    description:
      'One invoice per ended billing period, newest first, issued at the period end from the metered usage and the plan. Not for customer keys (403).',
  })
  @ApiPageResponse(InvoiceResponseDto, { example: { data: [INVOICE_EXAMPLE], next_cursor: null } })
  list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<InvoiceResponse>> {
    return this.invoices.list(p, q);
  }

  @Get(':id')
  @RequireScopes('subscription:read')
  @ApiOperation({ summary: 'Get an invoice', description: 'One invoice with its lines per metric, totals in minor units, currency and status.' })
  @ApiOkResponse({ type: InvoiceResponseDto, description: 'The invoice', example: INVOICE_EXAMPLE })
  @ApiNotFoundResponse({ description: "No such invoice (also another tenant's)" })
  get(@CurrentPrincipal() p: Principal, @Param('id', new ParseUUIDPipe()) id: string): Promise<InvoiceResponse> {
    return this.invoices.get(p, id);
  }
}
