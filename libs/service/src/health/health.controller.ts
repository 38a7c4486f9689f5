import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '@platform/auth';
import { HealthRegistry, type HealthReport } from './health.registry.js';

@ApiTags('health')
@Controller('actuator/health')
export class HealthController {
  constructor(private readonly registry: HealthRegistry) {}

  @Get()
  @Public()
  @ApiOperation({ summary: 'Health of this service and its database and NATS connections' })
  @ApiOkResponse({ description: 'UP', schema: { example: { status: 'UP', service: 'run', components: { database: { status: 'UP', latency_ms: 0.8 }, nats: { status: 'UP', latency_ms: 0.3 } } } } })
  @ApiServiceUnavailableResponse({ description: 'DOWN: a component is unreachable' })
  async health(@Res({ passthrough: true }) res: Response): Promise<HealthReport> {
    const report = await this.registry.report();
    res.status(report.status === 'UP' ? 200 : 503);
    return report;
  }

  /** Process liveness only: a database outage must not make an orchestrator restart every pod. */
  @Get('liveness')
  @Public()
  @ApiOperation({ summary: 'Liveness: the process is up and serving HTTP' })
  @ApiOkResponse({ schema: { example: { status: 'UP' } } })
  liveness(): { status: 'UP' } {
    return { status: 'UP' };
  }
}
