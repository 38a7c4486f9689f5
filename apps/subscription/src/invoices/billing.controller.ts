import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiTag } from '@platform/service';
import { CurrentSystemPrincipal, SystemRoute, forbidden, type SystemPrincipal } from '@platform/auth';
import { BillingService } from './billing.service.js';
import { EndPeriodRequestDto } from './dto/end-period.request.dto.js';

/**
 * Operator routes (platform admin token only), for ending a period without waiting for the month
 * to end: support cases, and tests of the period end.
 */
@ApiTag('billing', 'Operator routes (platform admin token): end a billing period now and run a billing pass.')
@Controller('subscription/system/billing')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  /** The tenant's current period ends now; its invoice follows with the next billing pass (or `run`). */
  @Post('end-period')
  @HttpCode(200)
  @SystemRoute('admin')
  @ApiOperation({
    summary: "End a tenant's billing period now (platform admin)",
    description:
      'The current period ends now and the next one runs to the next month boundary; the ended period gets its invoice with the next billing pass on any replica.',
  })
  @ApiOkResponse({
    description: 'The period that ended',
    schema: {
      example: { tenant_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01', period_start: '2026-11-01T00:00:00.000Z', period_end: '2026-11-24T15:40:00.000Z' },
    },
  })
  @ApiNotFoundResponse({ description: 'The tenant has no subscription, or its period has ended already' })
  endPeriod(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: EndPeriodRequestDto) {
    if (caller.kind !== 'admin') throw forbidden();
    return this.billing.endPeriodNow(body.tenant_id);
  }

  /** One billing pass on this replica now: `{ issued }` invoices written by it. */
  @Post('run')
  @HttpCode(200)
  @SystemRoute('admin')
  @ApiOperation({
    summary: 'Run a billing pass now (platform admin)',
    description: 'Issues the invoices of every ended period now instead of at the next pass; safe beside the passes of other replicas.',
  })
  @ApiOkResponse({ description: 'Invoices this call wrote', schema: { example: { issued: 1 } } })
  async run(@CurrentSystemPrincipal() caller: SystemPrincipal): Promise<{ issued: number }> {
    if (caller.kind !== 'admin') throw forbidden();
    return { issued: await this.billing.run() };
  }
}
