import { Controller, Get, Query } from '@nestjs/common';
import { ApiForbiddenResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import { ApiTag } from '@platform/service';
import { UsageQueryDto } from './dto/usage-query.dto.js';
import { USAGE_EXAMPLE, UsageResponseDto } from './dto/usage.response.dto.js';
import { UsageService, type UsageResponse } from './usage.service.js';

@ApiTag('usage', 'Metered usage of the current period against the plan, per tenant or per customer, with a daily series.')
@Controller('subscription')
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('usage')
  @RequireScopes('subscription:read')
  @ApiOperation({
    summary: 'Get usage metrics',
    description:
      "The current period's usage of each metric (runs, ai_tokens, storage_bytes, notifications, active_workflows, seats) with what the plan includes and its cap. Totals lag the usage by a few seconds. `granularity=day` adds a daily series; `customer_id` narrows to one customer, and a customer key sees only its own customer's usage.",
  })
  @ApiOkResponse({ type: UsageResponseDto, description: 'Usage of the current period', example: USAGE_EXAMPLE })
  @ApiForbiddenResponse({ description: "A customer key asking for another customer's usage" })
  get(@CurrentPrincipal() p: Principal, @Query() q: UsageQueryDto): Promise<UsageResponse> {
    return this.usage.current(p, q);
  }
}
