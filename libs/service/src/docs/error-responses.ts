import { STATUS_CODES } from 'node:http';
import { AUTH_MESSAGES, AUTH_RESPONSES } from '@platform/auth';
import { MAX_JSON_DEPTH, errorBody, type ErrorBody } from '@platform/common';
import { BODY_NOT_OBJECT_MESSAGE } from '../errors/validation.pipe.js';

/** The one error shape (spec section 7), as component schemas every description declares. */
export const ERROR_SCHEMAS = {
  FieldError: {
    type: 'object',
    description: 'One problem with one field of the request.',
    required: ['field', 'message'],
    properties: {
      field: { type: 'string', description: 'Path of the field: `name`, `scopes[0]`, `steps[1].then[0].type`, a header or a parameter', example: 'name' },
      message: { type: 'string', description: 'What is wrong with it', example: 'must be a string' },
    },
  },
  Error: {
    type: 'object',
    description: 'Every error answer of every service and of the gateway.',
    required: ['error', 'code', 'message', 'status', 'request_id'],
    properties: {
      error: { type: 'string', description: 'The HTTP reason phrase of `status`', example: 'Not Found' },
      code: {
        type: 'string',
        description:
          "Stable and machine-readable: a feature's own code where it has one (`workflow_disabled`, `idempotency_mismatch`, `input_too_large`), `validation_failed` for a field error, else the status's (`bad_request`, `unauthorized`, `forbidden`, `not_found`, `conflict`, `payload_too_large`, `unsupported_media_type`, `rate_limited`, `internal`, `upstream_failed`, `unavailable`, `upstream_timeout`). See docs/errors.md",
        example: 'not_found',
      },
      message: { type: 'string', description: 'What went wrong, safe to show (server errors say only "Internal server error")', example: 'Workflow not found' },
      status: { type: 'integer', description: 'The HTTP status, repeated', example: 404 },
      request_id: {
        type: 'string',
        description: 'The request id (also the `X-Request-Id` response header); logs of every service carry it',
        example: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e',
      },
      details: { type: 'array', description: 'Field-level problems (validation failures)', items: { $ref: '#/components/schemas/FieldError' } },
    },
  },
} as const;

export const ERROR_SCHEMA_REF = '#/components/schemas/Error';

const REQUEST_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e';

export function errorExample(status: number, message: string, details?: ErrorBody['details']): ErrorBody {
  return errorBody(status, message, REQUEST_ID, details);
}

interface Example {
  summary: string;
  value: ErrorBody;
}

/** What the platform answers with each status; the texts clients see. */
const FIXED_MESSAGES: Record<number, string> = {
  401: AUTH_MESSAGES.unauthorized,
  403: AUTH_MESSAGES.forbidden,
  413: 'Request body is larger than the limit',
  415: 'Content-Type must be application/json',
  429: 'Rate limit exceeded: 600 requests per 60 s for this API key',
  500: 'Internal server error',
  503: 'Authentication is temporarily unavailable',
};

/** When a route says nothing of its own about a status. */
const DEFAULT_MESSAGES: Record<number, string> = { 404: 'Resource not found', 409: 'Conflict with the current state of the resource' };

/** Descriptions the document builder adds itself. */
export const STANDARD_DESCRIPTIONS = {
  validation: 'The body, a parameter or a header is invalid: `details` names every field and what is wrong with it',
  malformed: `The body is not JSON, or nests deeper than ${MAX_JSON_DEPTH} levels`,
  notObject: 'The body is JSON but not an object (an array, null, a number, a string)',
  tooLarge: 'The body is larger than the limit (`BODY_LIMIT_BYTES`, default 10 MiB; uploads `UPLOAD_LIMIT_BYTES`)',
  mediaType: 'The body is not of a media type this route takes (`Content-Type`)',
  notFound: 'No such resource for this caller (its tenant, environment and customer scope)',
  internal: 'An unexpected failure; the message is generic and the log has the details under the request id',
} as const;

const STANDARD = new Set<string>([AUTH_RESPONSES.tenantRequired, ...Object.values(STANDARD_DESCRIPTIONS)]);

/** The parts of a merged response description (Nest joins them with blank lines) the route wrote itself. */
function ownParts(description: string | undefined): string[] {
  return (description ?? '').split('\n\n').filter((part) => part && !STANDARD.has(part));
}

export interface ErrorExampleContext {
  /** What the route answers to an invalid field of its body or parameters. */
  validation?: ErrorBody;
  takesJson: boolean;
  /** The body is a JSON object of declared fields: any other JSON value is refused. */
  objectBody: boolean;
  tenant: boolean;
}

/** The examples of one error response: one per way the route can fail with that status. */
export function errorExamples(status: number, description: string | undefined, context: ErrorExampleContext): Record<string, Example> {
  const reason = STATUS_CODES[status] ?? 'Error';
  if (status !== 400) {
    const name = exampleName(status);
    const fixed = FIXED_MESSAGES[status];
    // Authentication, rate limiting and server errors answer one fixed text whatever the cause.
    if (fixed !== undefined && status !== 413) return { [name]: { summary: reason, value: errorExample(status, fixed) } };
    const own = ownParts(description);
    const examples: Record<string, Example> = {};
    if (fixed !== undefined || !own.length) examples[name] = { summary: reason, value: errorExample(status, fixed ?? DEFAULT_MESSAGES[status] ?? reason) };
    own.forEach((part, index) => {
      examples[index || fixed !== undefined ? `${name}_${index + 1}` : name] = { summary: part, value: errorExample(status, part.replace(/\.$/, '')) };
    });
    return examples;
  }
  const examples: Record<string, Example> = {};
  if (context.validation) {
    examples.validation_failed = { summary: 'A field is missing or invalid (details lists every problem)', value: context.validation };
  }
  if (context.takesJson) examples.malformed_json = { summary: 'The body is not valid JSON', value: errorExample(400, 'Malformed JSON in request body') };
  if (context.objectBody) examples.not_an_object = { summary: STANDARD_DESCRIPTIONS.notObject, value: errorExample(400, BODY_NOT_OBJECT_MESSAGE) };
  ownParts(description).forEach((part, index) => {
    examples[index === 0 ? 'rejected' : `rejected_${index + 1}`] = { summary: part, value: errorExample(400, part.replace(/\.$/, '')) };
  });
  if (context.tenant) examples.tenant_required = { summary: 'A JWT without X-SELECTED-TENANT', value: errorExample(400, AUTH_MESSAGES.tenantRequired) };
  if (!Object.keys(examples).length) examples.bad_request = { summary: reason, value: errorExample(400, 'Bad request') };
  return examples;
}

function exampleName(status: number): string {
  return (STATUS_CODES[status] ?? 'error').toLowerCase().replace(/[^a-z0-9]+/g, '_');
}
