import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiTag } from '@platform/service';
import { CurrentSystemPrincipal, SystemRoute, forbidden, type SystemPrincipal } from '@platform/auth';
import { BillingService, type BillingPass } from './billing.service.js';
import { EndPeriodRequestDto } from './dto/end-period.request.dto.js';
import { RetryBillingRequestDto } from './dto/retry-billing.request.dto.js';

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
  @ApiOkResponse({
    description: 'Invoices this call wrote (`issued`), and the closes that failed (`failed`: each recorded on its subscription and tried again next pass)',
    schema: { example: { issued: 1, failed: 0 } },
  })
  run(@CurrentSystemPrincipal() caller: SystemPrincipal): Promise<BillingPass> {
    if (caller.kind !== 'admin') throw forbidden();
    return this.billing.run();
  }

  /** Tries a tenant the billing pass gave up on again: its failure count starts afresh and its ended period is closed now. */
  @Post('retry')
  @HttpCode(200)
  @SystemRoute('admin')
  @ApiOperation({
    summary: "Retry closing a tenant's ended period (platform admin)",
    description:
      'A pass that fails to close a period records the error on the subscription and tries again next pass; after `SUBSCRIPTION_BILLING_MAX_ATTEMPTS` failed passes in a row it stops trying. Once the cause is fixed, this closes the period now and the passes take the tenant again. `invoice_id` is null when the tenant had no ended period.',
  })
  @ApiOkResponse({ description: 'The invoice written, if any', schema: { example: { invoice_id: '0194f1c2-9b0d-7e11-8a4f-2c3d4e5f6a70' } } })
  @ApiNotFoundResponse({ description: 'The tenant has no subscription' })
  @ApiConflictResponse({ description: '`billing_failed`: closing the period failed again (recorded on the subscription, details in the log)' })
  retry(@CurrentSystemPrincipal() caller: SystemPrincipal, @Body() body: RetryBillingRequestDto) {
    if (caller.kind !== 'admin') throw forbidden();
    return this.billing.retry(body.tenant_id);
  }
}
