import { COMPONENT_HEALTH_SCHEMA, SERVICE_NAMES, errorBody } from '@platform/common';

/**
 * The gateway's own routes, described for the merged document: aggregated health, one
 * service's health through the gateway, and the docs. The services' own health paths are left
 * out of the merged document (through the gateway `/actuator/health` is the aggregate).
 */

const REQUEST_ID = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e';
const ERROR = { $ref: '#/components/schemas/Error' };

function error(status: number, reason: string, description: string, message: string) {
  return {
    [status]: {
      description,
      content: {
        'application/json': {
          schema: ERROR,
          examples: { [reason.toLowerCase().replace(/ /g, '_')]: { summary: reason, value: errorBody(status, message, REQUEST_ID) } },
        },
      },
    },
  };
}

/** A 200 answering an OpenAPI 3.0 document, with an example of the given title. */
const openApiDocument = (title: string) => ({
  description: 'An OpenAPI 3.0 document',
  content: {
    'application/json': { schema: { type: 'object', additionalProperties: true }, example: { openapi: '3.0.0', info: { title, version: '1.0.0' }, paths: {} } },
  },
});

const SERVICE_REPORT = {
  type: 'object',
  required: ['status', 'service', 'components'],
  properties: {
    status: { type: 'string', enum: ['UP', 'DOWN'] },
    service: { type: 'string', enum: [...SERVICE_NAMES] },
    components: { type: 'object', additionalProperties: COMPONENT_HEALTH_SCHEMA, description: 'Each dependency checked: `database`, `nats`' },
  },
};

export const GATEWAY_SCHEMAS = {
  PlatformHealth: {
    type: 'object',
    required: ['status', 'services'],
    properties: {
      status: { type: 'string', enum: ['UP', 'DOWN'], description: 'UP only when every service is UP' },
      services: {
        type: 'object',
        description: 'Each service by name',
        additionalProperties: {
          type: 'object',
          required: ['status', 'latency_ms'],
          properties: {
            status: { type: 'string', enum: ['UP', 'DOWN'] },
            latency_ms: { type: 'number' },
            components: { type: 'object', additionalProperties: COMPONENT_HEALTH_SCHEMA },
            error: { type: 'string', enum: ['timed out', 'unreachable'] },
          },
        },
      },
    },
  },
  ServiceHealth: SERVICE_REPORT,
};

const UP = { status: 'UP', latency_ms: 1.2, components: { database: { status: 'UP', latency_ms: 0.8 }, nats: { status: 'UP', latency_ms: 0.3 } } };
const SERVICE_PARAM = {
  name: 'service',
  in: 'path',
  required: true,
  description: 'A service of the platform',
  schema: { type: 'string', enum: [...SERVICE_NAMES], example: 'run' },
};
const DOCS_SECURITY = [{ api_key: [] }, { api_key_bearer: [] }, { jwt: [] }, {}];
const DOCS_NOTE = 'Needs a valid API key or JWT unless the platform runs with `DOCS_PUBLIC=true`.';
const RATE_LIMITED = error(
  429,
  'Too Many Requests',
  'Too many requests from this caller in the current window; `Retry-After` says when to try again',
  'Rate limit exceeded: 300 requests per 60 s for this client address',
);
const UNAUTHORIZED = error(401, 'Unauthorized', 'No valid credential, and the docs are not public', 'Missing or invalid authentication credentials');

export const GATEWAY_TAGS = [
  { name: 'health', description: 'Health of the platform and of each service through the gateway; public, never rate limited.' },
  { name: 'docs', description: 'The OpenAPI descriptions: every service merged (this document), or one service.' },
];

export const GATEWAY_PATHS = {
  '/actuator/health': {
    get: {
      operationId: 'gateway_health_platform',
      tags: ['health'],
      summary: 'Health of the platform',
      description:
        'Asks every service for its health in parallel. 200 when each one is UP, 503 (with the same body) when one is DOWN or does not answer in time.',
      security: [],
      responses: {
        200: {
          description: 'Every service is UP',
          content: {
            'application/json': { schema: { $ref: '#/components/schemas/PlatformHealth' }, example: { status: 'UP', services: { run: UP, storage: UP } } },
          },
        },
        503: {
          description: 'A service is DOWN',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/PlatformHealth' },
              example: { status: 'DOWN', services: { run: UP, storage: { status: 'DOWN', latency_ms: 2000.3, error: 'timed out' } } },
            },
          },
        },
      },
    },
  },
  '/actuator/health/liveness': {
    get: {
      operationId: 'gateway_health_liveness',
      tags: ['health'],
      summary: 'Liveness of the gateway',
      description: 'Answers as long as the gateway process serves HTTP, whatever the state of the services.',
      security: [],
      responses: {
        200: {
          description: 'The gateway is up',
          content: {
            'application/json': {
              schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['UP'] } } },
              example: { status: 'UP' },
            },
          },
        },
      },
    },
  },
  '/actuator/health/{service}': {
    get: {
      operationId: 'gateway_health_service',
      tags: ['health'],
      summary: 'Health of one service',
      description: "One service's own health check (its database and NATS connections), through the gateway.",
      security: [],
      parameters: [SERVICE_PARAM],
      responses: {
        200: {
          description: 'The service is UP',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ServiceHealth' },
              example: { status: 'UP', service: 'run', components: UP.components },
            },
          },
        },
        503: {
          description: 'The service or one of its dependencies is DOWN',
          content: {
            'application/json': {
              schema: { $ref: '#/components/schemas/ServiceHealth' },
              example: {
                status: 'DOWN',
                service: 'run',
                components: { database: { status: 'DOWN', latency_ms: 2000, error: 'database unreachable' }, nats: { status: 'UP', latency_ms: 0.3 } },
              },
            },
          },
        },
        ...error(404, 'Not Found', 'No such service', 'No route for GET /actuator/health/nothing'),
      },
    },
  },
  '/v3/api-docs': {
    get: {
      operationId: 'gateway_docs_merged',
      tags: ['docs'],
      summary: 'The merged OpenAPI description',
      description: `This document: every service's description in one, for client generation. A service that does not answer is listed in \`info.x-unavailable-services\`. ${DOCS_NOTE}`,
      security: DOCS_SECURITY,
      responses: {
        200: openApiDocument('Workflow automation platform'),
        ...UNAUTHORIZED,
        ...RATE_LIMITED,
      },
    },
  },
  '/v3/api-docs/{service}': {
    get: {
      operationId: 'gateway_docs_service',
      tags: ['docs'],
      summary: "One service's OpenAPI description",
      description: `The description a service serves itself, through the gateway. ${DOCS_NOTE}`,
      security: DOCS_SECURITY,
      parameters: [SERVICE_PARAM],
      responses: {
        200: openApiDocument('Run service'),
        ...UNAUTHORIZED,
        ...error(404, 'Not Found', 'No such service', 'No route for GET /v3/api-docs/nothing'),
        ...RATE_LIMITED,
      },
    },
  },
};
