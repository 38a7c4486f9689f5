/**
 * The JSON Schema every connector definition must satisfy (built-ins at start-up, published ones
 * when they are listed in the marketplace). Operation input and output schemas are themselves
 * compiled as JSON Schemas, so a definition whose schema is broken is refused before anyone uses it.
 */
export const CONNECTOR_DEFINITION_SCHEMA = {
  $id: 'https://platform.local/schemas/connector-definition.json',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'name',
    'version',
    'description',
    'categories',
    'icon',
    'publisher',
    'auth',
    'base_url',
    'settings_schema',
    'driver',
    'operations',
    'test_operation',
  ],
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,63}$' },
    name: { type: 'string', minLength: 1, maxLength: 100 },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+$' },
    description: { type: 'string', maxLength: 2000 },
    categories: { type: 'array', items: { type: 'string', pattern: '^[a-z][a-z0-9-]*$' }, minItems: 1, uniqueItems: true },
    icon: { type: 'string', maxLength: 2000 },
    publisher: { type: 'string', minLength: 1, maxLength: 100 },
    auth: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        properties: {
          type: { enum: ['none', 'api_key', 'basic', 'bearer', 'oauth2_code', 'oauth2_client_credentials'] },
          in: { enum: ['header', 'query'] },
          name: { type: 'string', minLength: 1, maxLength: 100 },
          prefix: { type: 'string', maxLength: 50 },
          authorization_url: { type: 'string', format: 'uri' },
          token_url: { type: 'string', format: 'uri' },
          scopes: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    base_url: { anyOf: [{ type: 'string', format: 'uri', pattern: '^https?://' }, { type: 'null' }] },
    settings_schema: { type: 'object' },
    driver: { enum: ['http', 'postgres', 'smtp'] },
    operations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'name', 'description', 'input_schema', 'output_schema'],
        properties: {
          id: { type: 'string', pattern: '^[a-z][a-z0-9_]{0,63}$' },
          name: { type: 'string', minLength: 1 },
          description: { type: 'string' },
          input_schema: { type: 'object' },
          output_schema: { type: 'object' },
          http: {
            type: 'object',
            additionalProperties: false,
            required: ['method', 'path'],
            properties: {
              method: { type: 'string', pattern: '^(GET|POST|PUT|PATCH|DELETE|HEAD|\\{\\{input\\.[a-z_]+\\}\\})$' },
              path: { type: 'string' },
              query: { type: ['object', 'string'] },
              headers: { type: ['object', 'string'] },
              body: {},
              body_type: { enum: ['json', 'form'] },
            },
          },
          pagination: { type: 'object' },
          retryable_statuses: { type: 'array', items: { type: 'integer', minimum: 400, maximum: 599 }, uniqueItems: true },
          success_field: { type: 'string' },
          error_field: { type: 'string' },
        },
      },
    },
    test_operation: {
      type: 'object',
      additionalProperties: false,
      required: ['operation', 'input'],
      properties: { operation: { type: 'string' }, input: { type: 'object' } },
    },
  },
} as const;
