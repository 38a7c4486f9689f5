import { HTTP_METHODS, MAX_TIMEOUT_MS, RESPONSE_TYPES } from '../../engine/steps/http/http-request.input.js';
import { MAX_CODE_BYTES } from '../../engine/steps/code.step.js';

/**
 * The input each built-in step type takes, published in the OpenAPI description (one component
 * per type, listed by type in WorkflowStep's `x-input-schema-by-type`) so that clients can build a
 * form for a step's input. Descriptive only: the step validators stay the authority, and nothing
 * here changes which definitions are valid. Any value may also be a `{% … %}` expression, which
 * the types below do not repeat; types without a fixed shape (transform, set) and connector (its input is described by its connector's action) are not listed.
 */
const str = (description: string, extra: object = {}) => ({ type: 'string', description, ...extra });
const int = (description: string, extra: object = {}) => ({ type: 'integer', description, ...extra });
const obj = (description: string) => ({ type: 'object', additionalProperties: true, description });
const input = (description: string, properties: Record<string, object>, required: string[] = [], closed = false) => ({
  type: 'object',
  description,
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: !closed,
});

const task = {
  title: str('What the person is asked (1-500 characters)', { minLength: 1, maxLength: 500 }),
  description: str('More about it, shown with the task'),
  assignee: obj('Exactly one of user_id, team_id or customer_id (a UUID)'),
  context: obj('Values shown with the task'),
  due_in_seconds: int('Deadline, seconds from when the task is created', { minimum: 1 }),
  due_at: str('Deadline, an ISO 8601 time (not with due_in_seconds)', { format: 'date-time' }),
  on_expiry: { description: '"reject", "fail" or { escalate_to, extend_seconds }; needs a deadline' },
};

export const STEP_INPUT_SCHEMAS: Record<string, { name: string; schema: object }> = {
  'http.request': {
    name: 'HttpRequestStepInput',
    schema: input(
      'http.request: one HTTP call; its output is { status, headers, body }',
      {
        method: { type: 'string', enum: [...HTTP_METHODS], default: 'GET' },
        url: str('http(s) URL; private addresses are refused unless the platform allows them', { format: 'uri' }),
        headers: obj('Header names and values'),
        query: obj('Query parameters, added to the URL'),
        body: { description: 'JSON (sent as application/json) or a string' },
        timeout_ms: int('Per attempt', { minimum: 1, maximum: MAX_TIMEOUT_MS }),
        response_type: { type: 'string', enum: [...RESPONSE_TYPES], default: 'auto', description: 'How the response body is read' },
        fail_on_status: { type: 'boolean', default: true, description: 'A 4xx/5xx answer fails the step' },
      },
      ['url'],
      true,
    ),
  },
  code: {
    name: 'CodeStepInput',
    schema: input(
      'code: JavaScript run in a sandbox; what it returns is the output',
      {
        code: str(`The function body (sees input); at most ${MAX_CODE_BYTES} bytes`, { maxLength: MAX_CODE_BYTES, format: 'textarea' }),
        input: obj('Given to the code as input'),
      },
      ['code'],
      true,
    ),
  },
  'data.query': {
    name: 'DataQueryStepInput',
    schema: input(
      'data.query: one SELECT on the data tables',
      { query: str('A single SELECT', { format: 'textarea' }), params: { type: 'array', items: {}, description: 'Values of $1, $2, …' } },
      ['query'],
    ),
  },
  'data.insert': {
    name: 'DataInsertStepInput',
    schema: input(
      'data.insert: rows into a data table',
      { table: str('Table name'), rows: { type: 'array', items: { type: 'object' }, description: 'Rows as objects' } },
      ['table', 'rows'],
    ),
  },
  'data.update': {
    name: 'DataUpdateStepInput',
    schema: input('data.update: one row of a data table', { table: str('Table name'), id: str('The row id'), values: obj('Columns to set') }, [
      'table',
      'id',
      'values',
    ]),
  },
  'data.delete': {
    name: 'DataDeleteStepInput',
    schema: input('data.delete: one row of a data table', { table: str('Table name'), id: str('The row id') }, ['table', 'id']),
  },
  'file.read': {
    name: 'FileReadStepInput',
    schema: input(
      'file.read: a stored file as base64',
      { fileId: str('The file id', { format: 'uuid' }), maxBytes: int('Refused above this size', { minimum: 1 }) },
      ['fileId'],
    ),
  },
  'file.write': {
    name: 'FileWriteStepInput',
    schema: input(
      'file.write: a new stored file',
      { name: str('File name'), contentType: str('Media type (default: detected)'), contentBase64: str('The content, base64', { format: 'textarea' }) },
      ['name', 'contentBase64'],
    ),
  },
  notification: {
    name: 'NotificationStepInput',
    schema: input(
      'notification: a message through a notification channel (body or template)',
      {
        channel_id: str('The channel', { format: 'uuid' }),
        to: { description: 'A recipient or a list of them (default: the channel’s)' },
        subject: str('Subject, where the channel has one'),
        body: str('The message', { format: 'textarea' }),
        template: str('A template instead of the body'),
        variables: obj('Values of the template'),
        idempotency_key: str('Sends once per key (default: one per run and step)'),
      },
      ['channel_id'],
    ),
  },
  delay: {
    name: 'DelayStepInput',
    schema: input('delay: waits, without holding a worker', {
      seconds: { type: 'number', minimum: 0, description: 'How long' },
      until: str('Or until this ISO 8601 time', { format: 'date-time' }),
    }),
  },
  approval: { name: 'ApprovalStepInput', schema: input('approval: a person approves or rejects; the run waits', task, ['title']) },
  form: {
    name: 'FormStepInput',
    schema: input('form: a person fills in a form; the run waits', { ...task, form: obj('The JSON Schema of the data to collect') }, ['title', 'form']),
  },
  subworkflow: {
    name: 'SubworkflowStepInput',
    schema: input(
      'subworkflow: runs another workflow and waits for it; its output is the child’s',
      { workflow_id: str('The workflow', { format: 'uuid' }), input: obj('The child run’s input') },
      ['workflow_id'],
    ),
  },
  'ai.generate': {
    name: 'AiGenerateStepInput',
    schema: input(
      'ai.generate: one completion from a model of the AI runtime',
      {
        model: str('A model the tenant has configured (docs/ai.md)'),
        prompt: str('The prompt', { format: 'textarea' }),
        system: str('A system instruction', { format: 'textarea' }),
        max_tokens: int('Most tokens to generate', { minimum: 1, maximum: 200_000 }),
        temperature: { type: 'number', minimum: 0, maximum: 2, description: 'Sampling temperature' },
        response_format: { type: 'string', enum: ['text', 'json'], default: 'text', description: 'json: the output is parsed JSON' },
      },
      ['model', 'prompt'],
    ),
  },
  'ai.chat': {
    name: 'AiChatStepInput',
    schema: input(
      'ai.chat: a conversation turn, with tools the model may call',
      {
        model: str('A model the tenant has configured (docs/ai.md)'),
        messages: { type: 'array', items: obj('{ role, content }'), description: 'The conversation so far' },
        tools: { type: 'array', items: obj('A tool: { name, description, parameters }'), description: 'Tools the model may call' },
        max_tokens: int('Most tokens to generate', { minimum: 1, maximum: 200_000 }),
        temperature: { type: 'number', minimum: 0, maximum: 2, description: 'Sampling temperature' },
        response_format: { type: 'string', enum: ['text', 'json'], default: 'text', description: 'json: the output is parsed JSON' },
      },
      ['model', 'messages'],
    ),
  },
  'ai.embed': {
    name: 'AiEmbedStepInput',
    schema: input(
      'ai.embed: embedding vectors of texts',
      { input: { description: 'A text or a list of texts' }, model: str('An embedding model (default: the tenant’s)') },
      ['input'],
    ),
  },
  'kb.query': {
    name: 'KbQueryStepInput',
    schema: input(
      'kb.query: the passages of a knowledge base nearest a query, optionally with an answer',
      {
        knowledge_base_id: str('The knowledge base', { format: 'uuid' }),
        query: str('What to look for'),
        top_k: int('How many passages', { minimum: 1, maximum: 50 }),
        filter: obj('Metadata the passages must have'),
        answer: { type: 'boolean', default: false, description: 'Also answer the query from the passages' },
      },
      ['knowledge_base_id', 'query'],
    ),
  },
  'ai.agent': {
    name: 'AiAgentStepInput',
    schema: input(
      'ai.agent: a run of an AI agent; fails if the agent waits for an approval (docs/ai.md)',
      { agent_id: str('The agent', { format: 'uuid' }), input: { description: 'The agent run’s input' } },
      ['agent_id', 'input'],
    ),
  },
  stop: { name: 'StopStepInput', schema: input('stop: ends the run successfully', { output: { description: 'The run’s output' } }) },
  fail: {
    name: 'FailStepInput',
    schema: input('fail: ends the run as failed', { message: str('The error message'), code: str('The error code (default workflow_failed)') }),
  },
};

/** The components to publish: one per type, by its name. */
export const STEP_INPUT_COMPONENTS: Record<string, object> = Object.fromEntries(Object.values(STEP_INPUT_SCHEMAS).map(({ name, schema }) => [name, schema]));

/** Type → a reference to the component of its input (discriminated on the step's `type`). */
export const INPUT_SCHEMA_BY_TYPE: Record<string, { $ref: string }> = Object.fromEntries(
  Object.entries(STEP_INPUT_SCHEMAS).map(([type, { name }]) => [type, { $ref: `#/components/schemas/${name}` }]),
);
