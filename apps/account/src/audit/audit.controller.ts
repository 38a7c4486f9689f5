import { Controller, Get, Param, ParseUUIDPipe, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentPrincipal, RequireScopes, type Principal } from '@platform/auth';
import type { Page } from '@platform/common';
import { ApiTag } from '@platform/service';
import { AuditService, type AuditLogEntry, type KeyUsage } from './audit.service.js';
import { AuditLogQueryDto, UsageQueryDto } from './dto/audit-log.query.dto.js';

@ApiTag('audit', 'What API keys did: the audit log of every key use, and usage statistics per key.')
@Controller('account')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get('audit-logs')
  @RequireScopes('account:read')
  @ApiOperation({
    summary: 'List the audit log',
    description:
      'Every use of an API key of the tenant (method, path, HTTP status, request id, address), newest first; filter by key (`key_id`, one key; `key_name`, every key of that name), endpoint, success or error and date range. A key id of another tenant gives an empty page, like an unknown one.',
  })
  @ApiOkResponse({
    description: 'One page of audit entries',
    schema: {
      example: {
        data: [
          {
            id: '0194…',
            key_id: '0194…',
            key_name: 'ci-deployer',
            user_id: null,
            method: 'POST',
            endpoint: '/v1/automations/run',
            status: 'success',
            http_status: 202,
            request_id: 'abc',
            ip: '10.0.0.1',
            created_at: '2026-11-22T10:00:00.000Z',
          },
        ],
        next_cursor: null,
      },
    },
  })
  logs(@CurrentPrincipal() principal: Principal, @Query() query: AuditLogQueryDto): Promise<Page<AuditLogEntry>> {
    return this.audit.logs(principal, query);
  }

  @Get('api-keys/:keyId/usage')
  @RequireScopes('account:read')
  @ApiOperation({
    summary: 'Get the usage of an API key',
    description: 'Requests made with one key over a date range (default: the last 30 days): totals, successes, errors, and counts per endpoint and per day.',
  })
  @ApiOkResponse({
    description: 'The usage statistics',
    schema: {
      example: {
        key_id: '0194…',
        from: '2026-10-23T00:00:00.000Z',
        to: '2026-11-22T00:00:00.000Z',
        total: 3,
        success: 2,
        error: 1,
        by_endpoint: [{ endpoint: '/account/me', count: 3 }],
        by_day: [{ date: '2026-11-22', count: 3 }],
      },
    },
  })
  usage(@CurrentPrincipal() principal: Principal, @Param('keyId', new ParseUUIDPipe()) keyId: string, @Query() query: UsageQueryDto): Promise<KeyUsage> {
    return this.audit.usage(principal, keyId, query);
  }
}
