import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiConflictResponse, ApiForbiddenResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiTag, PageQueryDto } from '@platform/service';
import { SEED_PLANS } from '../plans/seed-plans.js';
import { toPlanResponse, type PlanResponse } from '../plans/plan.record.js';
import { ChangePlanRequestDto } from './dto/change-plan.request.dto.js';
import { SUBSCRIPTION_EXAMPLE, SubscriptionResponseDto } from './dto/subscription.response.dto.js';
import type { PlanChangeResponse, SubscriptionResponse } from './subscription.record.js';
import { SubscriptionsService } from './subscriptions.service.js';

const PLAN_EXAMPLE = toPlanResponse({ ...SEED_PLANS[1], notification_limits: SEED_PLANS[1].notification_limits ?? null, created_at: new Date(0) });

/** The tenant's plan and billing period. */
@ApiTag(
  'subscription',
  "The tenant's subscription: plans (per-minute request limits, notification sending limits, monthly quotas and prices), the current plan and period, plan changes, metered usage and invoices.",
)
@Controller('subscription')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionsService) {}

  @Get('current')
  @RequireScopes('subscription:read')
  @ApiOperation({
    summary: 'Get current subscription',
    description: 'The plan, the current billing period (calendar months, UTC) and the status. Not for customer keys (403).',
  })
  @ApiOkResponse({ type: SubscriptionResponseDto, description: 'The subscription', example: SUBSCRIPTION_EXAMPLE })
  @ApiForbiddenResponse({ description: 'A customer key, or a key narrowed with X-Scope-Key' })
  current(@CurrentPrincipal() p: Principal): Promise<SubscriptionResponse> {
    return this.subscriptions.current(p);
  }

  @Put('current')
  @RequireScopes('subscription:write')
  @ApiOperation({
    summary: 'Change the plan',
    description:
      "Moves the subscription to another plan at once and records the change. The gateways apply the new plan's request limits and quotas within seconds; the period's invoice is priced on the plan in force when the period ends.",
  })
  @ApiOkResponse({ type: SubscriptionResponseDto, description: 'The subscription on its new plan', example: SUBSCRIPTION_EXAMPLE })
  @ApiBadRequestResponse({ description: 'No such plan (details name `plan`)' })
  @ApiConflictResponse({ description: 'The subscription is already on this plan' })
  change(@CurrentPrincipal() p: Principal, @Body() body: ChangePlanRequestDto): Promise<SubscriptionResponse> {
    return this.subscriptions.changePlan(p, body.plan);
  }

  @Get('changes')
  @RequireScopes('subscription:read')
  @ApiOperation({
    summary: 'List plan changes',
    description: 'Every plan change of the subscription, newest first: from and to which plan, who made it (`<kind>:<key or user id>`) and when.',
  })
  @ApiOkResponse({
    description: 'A page of plan changes',
    schema: {
      example: {
        data: [
          {
            id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f30',
            from_plan: 'free',
            to_plan: 'pro',
            actor: 'tenant_key:0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f31',
            changed_at: '2026-11-24T15:40:00.000Z',
          },
        ],
        next_cursor: null,
      },
    },
  })
  changes(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto): Promise<Page<PlanChangeResponse>> {
    return this.subscriptions.changes(p, q);
  }

  @Get('plans')
  @RequireScopes('subscription:read')
  @ApiOperation({
    summary: 'List plans',
    description:
      "Every plan a tenant can move to: requests per minute for live keys, test keys and users; per metric the amount included, the hard cap (`limit`, null for none) and the price in minor units per `per` units beyond the included amount; `notification_limits`: notifications each environment may send per minute and per UTC day (null: the notification service's defaults).",
  })
  @ApiOkResponse({ description: 'The plans, cheapest first', schema: { example: { data: [PLAN_EXAMPLE] } } })
  async plans(@CurrentPrincipal() p: Principal): Promise<{ data: PlanResponse[] }> {
    return { data: await this.subscriptions.plans(p) };
  }
}
