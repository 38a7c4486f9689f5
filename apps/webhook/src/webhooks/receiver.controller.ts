import { Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@platform/auth';
import { AcceptsContentTypes } from '@platform/service';
import { DeliveriesService } from './deliveries.service.js';
import { readRawBody } from './raw-body.js';

/** The public receiving address: no credentials; the webhook's signature or token is the check. */
@ApiTags('webhooks')
@Controller('webhooks/in')
export class ReceiverController {
  constructor(private readonly deliveries: DeliveriesService) {}

  @Post(':id')
  @Public()
  @HttpCode(202)
  @AcceptsContentTypes('application/x-www-form-urlencoded', 'text/', 'application/xml', 'application/octet-stream')
  @ApiOperation({ summary: 'Receive a webhook delivery (Standard Webhooks signature, a token header, or none)' })
  async receive(@Param('id') id: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    const raw = await readRawBody(req, this.deliveries.bodyLimit);
    const contentType = req.headers['content-type'] ?? null;
    const json = (req as Request & { rawBody?: Buffer }).rawBody !== undefined ? (req.body as unknown) : undefined;
    const answer = await this.deliveries.receive(id, { method: req.method, headers: req.headers, query: req.query, contentType, raw, json });
    res.status(answer.status);
    return answer.body;
  }
}
