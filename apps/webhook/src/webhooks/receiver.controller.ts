import { Controller, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiHeader, ApiOkResponse, ApiOperation, ApiParam, ApiPayloadTooLargeResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '@platform/auth';
import type { ServiceConfig } from '@platform/common';
import { AcceptsContentTypes, ApiTag, ERROR_SCHEMA_REF, errorExample, SERVICE_CONFIG } from '@platform/service';
import { DeliveriesService } from './deliveries.service.js';
import { RECEIVED_EXAMPLE, DeliveryReceivedResponseDto } from './dto/webhook.response.dto.js';
import { readRawBody } from './raw-body.js';
import { WebhookErrors } from './webhooks.errors.js';

/** The body as the sender chose it: the workflow gets it parsed (JSON, form) or as text. */
const RECEIVED_BODY = {
  description:
    'The delivery, as the sender sends it (up to `BODY_LIMIT_BYTES`). The run input is `{ body, headers, query, method, webhook_id, delivery_id }`, `body` parsed from JSON or a form, else the text.',
  required: false,
  content: {
    'application/json': {
      schema: { type: 'object', additionalProperties: true, description: 'Any JSON (an object, an array or a scalar): the run gets it parsed' },
      example: { type: 'invoice.paid', data: { invoice_id: 'in_4711', amount: 4200, currency: 'eur' } },
    },
    'application/x-www-form-urlencoded': {
      schema: { type: 'object', additionalProperties: { type: 'string' }, description: 'A form: the run gets its fields as an object of strings' },
      example: { event: 'invoice.paid', invoice_id: 'in_4711' },
    },
    'text/plain': {
      schema: { type: 'string', description: 'Any text/* body (also application/xml): the run gets it as a string' },
      example: 'invoice in_4711 paid',
    },
    'application/xml': {
      schema: { type: 'string', description: 'The run gets it as a string' },
      example: '<event type="invoice.paid"><invoice>in_4711</invoice></event>',
    },
    'application/octet-stream': {
      schema: { type: 'string', format: 'binary', description: 'Any bytes: the run gets them as UTF-8 text' },
    },
  },
};

const STANDARD_WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    description:
      'Standard Webhooks: the message id, signed; also the deduplication key (a repeated id answers 200 with the first delivery and its run). Required with hmac verification.',
    example: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
  },
  {
    name: 'webhook-timestamp',
    description: 'Standard Webhooks: Unix time in seconds of the sending, signed; refused more than 5 minutes from now. Required with hmac verification.',
    example: '1795341600',
  },
  {
    name: 'webhook-signature',
    description:
      'Standard Webhooks: space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">` signatures with the webhook secret (the base64 after `whsec_`); one valid one suffices. Required with hmac verification.',
    example: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  },
];

const UNAUTHORIZED = WebhookErrors.unauthorized();
const RUN_INPUT_TOO_LARGE = WebhookErrors.runInputTooLarge(2_097_450, 1_048_576);

/** The public receiving address: no credentials; the webhook's signature or token is the check. */
@ApiTag(
  'webhooks',
  'Start workflows from HTTP deliveries: webhooks with a public receiving address (`POST /webhooks/in/{id}`) verified by Standard Webhooks signatures or a token, their delivery log, and replay.',
)
@Controller('webhooks/in')
export class ReceiverController {
  constructor(
    private readonly deliveries: DeliveriesService,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  @Post(':id')
  @Public()
  @HttpCode(202)
  @AcceptsContentTypes('application/x-www-form-urlencoded', 'text/', 'application/xml', 'application/octet-stream')
  @ApiOperation({
    summary: 'Receive a webhook delivery',
    description:
      'The public receiving address of a webhook (its `url`): no platform credential. A webhook with `hmac` verification checks the Standard Webhooks headers (`webhook-id`, `webhook-timestamp`, `webhook-signature`) against the raw body; one with `token` verification compares its header with the token; `none` checks nothing. ' +
      'Each request is recorded in the delivery log before the answer. An accepted delivery starts the workflow: `async` webhooks answer 202 at once; `sync` webhooks wait up to `timeout_ms` for the run and answer 200 with its final status, or 202 with `running`. ' +
      'A repeated `webhook-id` (or `Idempotency-Key`) is not run again: 200 with the first delivery and its run. An unknown or disabled webhook answers 404.',
    requestBody: RECEIVED_BODY,
  })
  @ApiParam({
    name: 'id',
    description: "The webhook's id, the last segment of its `url` (an unknown or disabled webhook answers 404)",
    schema: { type: 'string', format: 'uuid' },
  })
  @ApiHeader({ ...STANDARD_WEBHOOK_HEADERS[0], required: false, schema: { type: 'string', example: STANDARD_WEBHOOK_HEADERS[0].example } })
  @ApiHeader({
    ...STANDARD_WEBHOOK_HEADERS[1],
    required: false,
    schema: { type: 'string', pattern: '^\\d{1,12}$', example: STANDARD_WEBHOOK_HEADERS[1].example },
  })
  @ApiHeader({ ...STANDARD_WEBHOOK_HEADERS[2], required: false, schema: { type: 'string', example: STANDARD_WEBHOOK_HEADERS[2].example } })
  @ApiHeader({
    name: 'Idempotency-Key',
    required: false,
    description: 'The deduplication key when there is no `webhook-id`: a repeated key answers 200 with the first delivery and its run',
    schema: { type: 'string', example: 'order-4711-paid' },
  })
  @ApiAcceptedResponse({
    type: DeliveryReceivedResponseDto,
    description:
      'Accepted: the delivery is recorded and its run started (async mode, or sync mode when the run did not finish within `timeout_ms`: `status` is `running`)',
    examples: {
      async: { summary: 'async mode', value: RECEIVED_EXAMPLE },
      sync_timed_out: { summary: 'sync mode, the run still running after timeout_ms', value: { ...RECEIVED_EXAMPLE, status: 'running' } },
    },
  })
  @ApiOkResponse({
    type: DeliveryReceivedResponseDto,
    description:
      'A repeated `webhook-id` or `Idempotency-Key` (`duplicate`: the first delivery and its run), or in sync mode the run finished: its final `status`, `output` and `error`',
    examples: {
      duplicate: { summary: 'A repeated webhook-id', value: { ...RECEIVED_EXAMPLE, duplicate: true } },
      sync_succeeded: {
        summary: 'sync mode, the run succeeded',
        value: { ...RECEIVED_EXAMPLE, status: 'succeeded', output: { got: { order: 42 } }, error: null },
      },
      sync_failed: {
        summary: 'sync mode, the run failed',
        value: {
          ...RECEIVED_EXAMPLE,
          status: 'failed',
          output: null,
          error: { code: 'http_error', message: 'POST https://hooks.example.com/big answered 502', step_id: 'notify' },
        },
      },
    },
  })
  @ApiUnauthorizedResponse({
    description: 'The signature or token is missing or invalid, or the timestamp is outside the 5-minute tolerance (the delivery is logged as rejected)',
    content: {
      'application/json': {
        schema: { $ref: ERROR_SCHEMA_REF },
        examples: { invalid_signature: { summary: 'Missing or invalid signature or token', value: errorExample(401, UNAUTHORIZED.message) } },
      },
    },
  })
  @ApiPayloadTooLargeResponse({
    description:
      'The body is larger than `BODY_LIMIT_BYTES` (default 10 MiB), or the run input it would make (`{ body, headers, query, … }` as JSON) is larger than the run service takes (`RUN_INPUT_LIMIT_BYTES`, default 1 MiB) or than one NATS message carries (`max_payload` less 16 KiB, if smaller): code `input_too_large`, nothing is started, and the delivery is logged as rejected with the reason',
    content: {
      'application/json': {
        schema: { $ref: ERROR_SCHEMA_REF },
        examples: { run_input_too_large: { summary: 'The run input would be over 1 MiB', value: errorExample(413, RUN_INPUT_TOO_LARGE.message) } },
      },
    },
  })
  async receive(@Param('id') id: string, @Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<Record<string, unknown>> {
    const raw = await readRawBody(req, this.config.BODY_LIMIT_BYTES);
    const contentType = req.headers['content-type'] ?? null;
    const json = (req as Request & { rawBody?: Buffer }).rawBody !== undefined ? (req.body as unknown) : undefined;
    const answer = await this.deliveries.receive(id, { method: req.method, headers: req.headers, query: req.query, contentType, raw, json });
    res.status(answer.status);
    return answer.body;
  }
}
