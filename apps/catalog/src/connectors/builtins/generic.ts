import type { ConnectorDefinition } from '@platform/messaging';
import { anyObject, DEFAULT_RETRYABLE, int, obj, str } from './shared.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

/** Any HTTP API, with any auth scheme: the connection gives the base URL. */
export const HTTP_CONNECTOR: ConnectorDefinition = {
  id: 'http',
  name: 'HTTP',
  version: '1.0.0',
  description: 'Calls any HTTP API with the credentials of the connection (API key, basic, bearer, OAuth 2.0).',
  categories: ['developer-tools'],
  icon: 'https://cdn.platform.local/icons/http.svg',
  publisher: 'platform',
  auth: [
    { type: 'none' },
    { type: 'api_key', in: 'header', name: 'X-API-Key' },
    { type: 'basic' },
    { type: 'bearer', prefix: 'Bearer ' },
    { type: 'oauth2_code' },
    { type: 'oauth2_client_credentials' },
  ],
  base_url: null,
  settings_schema: obj({ base_url: str('Base URL every path is relative to', { format: 'uri', pattern: '^https?://' }) }, ['base_url']),
  driver: 'http',
  operations: [
    {
      id: 'request',
      name: 'Send a request',
      description: 'Sends one request to a path under the base URL; a JSON answer is parsed.',
      input_schema: obj(
        {
          method: { enum: METHODS, default: 'GET' },
          path: str('Path under the base URL, starting with /', { pattern: '^/' }),
          query: { type: 'object', additionalProperties: { type: ['string', 'number', 'boolean'] } },
          headers: { type: 'object', additionalProperties: { type: 'string' } },
          body: {},
        },
        ['path'],
      ),
      output_schema: {},
      http: { method: '{{input.method}}', path: '{{input.path}}', query: '{{input.query}}', headers: '{{input.headers}}', body: '{{input.body}}' },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
  ],
  test_operation: { operation: 'request', input: { method: 'GET', path: '/' } },
};

/** OpenAI and every server speaking its API (vLLM, Ollama, LiteLLM, Azure OpenAI-compatible gateways). */
export const OPENAI_CONNECTOR: ConnectorDefinition = {
  id: 'openai',
  name: 'OpenAI-compatible LLM',
  version: '1.0.0',
  description: 'Chat completions, embeddings and model lists on OpenAI or any OpenAI-compatible server (set base_url).',
  categories: ['ai'],
  icon: 'https://cdn.platform.local/icons/openai.svg',
  publisher: 'platform',
  auth: [
    { type: 'bearer', prefix: 'Bearer ' },
    { type: 'api_key', in: 'header', name: 'api-key' },
  ],
  base_url: 'https://api.openai.com/v1',
  settings_schema: obj({ base_url: str('Another OpenAI-compatible server', { format: 'uri', pattern: '^https?://' }) }),
  driver: 'http',
  operations: [
    {
      id: 'chat_completion',
      name: 'Chat completion',
      description: 'Generates the next message of a conversation.',
      // Open: OpenAI-compatible servers take more parameters than these (top_p, seed, …).
      input_schema: {
        ...obj(
          {
            model: str('Model id', { minLength: 1 }),
            messages: {
              type: 'array',
              minItems: 1,
              items: obj({ role: { enum: ['system', 'user', 'assistant', 'tool'] }, content: { type: ['string', 'array', 'null'] } }, ['role']),
            },
            temperature: { type: 'number', minimum: 0, maximum: 2 },
            max_tokens: int('Upper bound of generated tokens', { minimum: 1 }),
            response_format: anyObject,
            tools: { type: 'array', items: {} },
          },
          ['model', 'messages'],
        ),
        additionalProperties: true,
      },
      output_schema: obj({ id: str('Completion id'), choices: { type: 'array', items: {} }, usage: anyObject }),
      http: { method: 'POST', path: '/chat/completions', body: '{{input}}' },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'embeddings',
      name: 'Embeddings',
      description: 'Embeds one or more texts.',
      input_schema: {
        ...obj({ model: str('Model id', { minLength: 1 }), input: { type: ['string', 'array'] } }, ['model', 'input']),
        additionalProperties: true,
      },
      output_schema: obj({ data: { type: 'array', items: {} }, usage: anyObject }),
      http: { method: 'POST', path: '/embeddings', body: '{{input}}' },
      retryable_statuses: [429, 500, 502, 503, 504],
    },
    {
      id: 'list_models',
      name: 'List models',
      description: 'The models the server offers.',
      input_schema: obj({}),
      output_schema: obj({ data: { type: 'array', items: {} } }),
      http: { method: 'GET', path: '/models' },
      retryable_statuses: DEFAULT_RETRYABLE,
    },
  ],
  test_operation: { operation: 'list_models', input: {} },
};
