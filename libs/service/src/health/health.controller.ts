import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@platform/auth';
import { COMPONENT_HEALTH_SCHEMA } from '@platform/common';
import { ApiTag } from '../docs/api-tag.js';
import { HealthRegistry, type HealthReport } from './health.registry.js';

const REPORT = {
  type: 'object',
  required: ['status', 'service', 'components'],
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'], description: 'UP when every component is UP' },
    service: { type: 'string', description: 'The service answering' },
    components: { type: 'object', additionalProperties: COMPONENT_HEALTH_SCHEMA, description: 'Each dependency checked: `database`, `nats`' },
  },
};

@ApiTag('health', 'Liveness and health of the service and of its database and NATS connections; public, never rate limited.')
@Controller('actuator/health')
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Health of this service and its dependencies',
    description: 'Checks the database and NATS connections now. 200 when every one is UP, 503 (with the same report) when one is DOWN: a readiness probe.',
  })
  @ApiOkResponse({
    description: 'UP',
    schema: {
      ...REPORT,
      example: { status: 'UP', service: 'run', components: { database: { status: 'UP', latency_ms: 0.8 }, nats: { status: 'UP', latency_ms: 0.3 } } },
    },
  })
  @ApiServiceUnavailableResponse({
    description: 'DOWN: a component is unreachable',
    schema: {
      ...REPORT,
      example: {
        status: 'DOWN',
        service: 'run',
        components: { database: { status: 'DOWN', latency_ms: 2000.4, error: 'database unreachable' }, nats: { status: 'UP', latency_ms: 0.3 } },
      },
    },
  })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.registry.report();
    res.status(report.status === 'UP' ? 200 : 503);
    return report;
  }

  /** Process liveness only: a database outage must not make an orchestrator restart every pod. */
  @Get('liveness')
  @Public()
  @ApiOperation({
    summary: 'Liveness of the process',
    description:
      'Answers as long as the process serves HTTP, whatever the state of the database or NATS: a liveness probe that does not restart every replica during an outage of a dependency.',
  })
  @ApiOkResponse({
    description: 'The process is up',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['UP'] } }, example: { status: 'UP' } },
  })
  liveness(): { status: 'UP' } {
    return { status: 'UP' };
  }
}
