import { INPUT_SCHEMA_BY_TYPE } from './step-inputs.schema.js';

/**
 * JSON Schema of a workflow definition's steps, published in the OpenAPI description so clients
 * can validate and generate types. The validator is the authority (it also checks ids, gotos and
 * expressions); this describes the shape.
 */
const expression = {
  type: 'string',
  description:
    'A JSONata expression written as `{% … %}` (sees input, steps.<id>.output, vars, secrets.<name>, execution, and item/index inside loops); any other value is literal.',
};
const stepList = { type: 'array', items: { $ref: '#/components/schemas/WorkflowStep' } };

export const WORKFLOW_STEP_SCHEMA = {
  type: 'object',
  required: ['id', 'type'],
  // Where each built-in type's input is described (step-inputs.schema.ts): for forms, not validation.
  'x-input-schema-by-type': INPUT_SCHEMA_BY_TYPE,
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_-]{0,63}$', description: 'Unique within the workflow' },
    type: {
      type: 'string',
      description:
        'Action types (transform, http.request, code, data.query, data.insert, data.update, data.delete, file.read, file.write, notification, ai.generate, ai.chat, ai.embed, ai.agent, kb.query, connector) or control types (condition, switch, loop, parallel, delay, subworkflow, approval, form, fail, stop, set).',
      example: 'transform',
    },
    input: {
      type: 'object',
      additionalProperties: true,
      description:
        'Values or expressions; what the step type takes (e.g. http.request: method, url, headers, query, body, timeout_ms). The input of each built-in type is described by the component `x-input-schema-by-type` refers to for it (HttpRequestStepInput, …).',
    },
    retry: {
      type: 'object',
      properties: {
        max_attempts: { type: 'integer', minimum: 1, maximum: 20, default: 1 },
        backoff_seconds: { type: 'number', minimum: 0, default: 1, description: 'First delay; doubles each attempt, with jitter' },
        max_backoff_seconds: { type: 'number', minimum: 0, default: 60 },
        retry_on: { type: 'array', items: { type: 'string' }, description: 'Error codes that retry (default: every retryable error)' },
      },
    },
    timeout_seconds: { type: 'number', minimum: 0, maximum: 86400 },
    on_error: {
      oneOf: [
        { type: 'string', enum: ['fail', 'continue'] },
        { type: 'object', required: ['goto'], properties: { goto: { type: 'string', description: 'A later step of the same list' } } },
      ],
    },
    if: {
      oneOf: [expression, { type: 'number' }, { type: 'boolean' }],
      description: 'condition: the test, an expression or a literal boolean, number or string (not an object or a list)',
    },
    then: { ...stepList, description: 'condition: steps when true' },
    else: { ...stepList, description: 'condition: steps when false' },
    value: { ...expression, description: 'switch: the value compared with each case' },
    cases: { type: 'array', items: { type: 'object', properties: { when: {}, steps: stepList } }, description: 'switch' },
    default: { ...stepList, description: 'switch: steps when no case matches' },
    items: { oneOf: [expression, { type: 'array', items: {} }], description: 'loop: the list iterated over, an expression or a literal list' },
    steps: { ...stepList, description: 'loop: steps run for each item' },
    concurrency: { type: 'integer', minimum: 1, maximum: 50, description: 'loop: iterations at once' },
    branches: { type: 'array', items: stepList, description: 'parallel: step lists run at once' },
  },
} as const;

export const DEFINITION_EXAMPLE = [
  { id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } },
  {
    id: 'check',
    type: 'condition',
    if: '{% steps.double.output.value > 10 %}',
    then: [
      {
        id: 'notify',
        type: 'http.request',
        input: { method: 'POST', url: 'https://hooks.example.com/big', body: { value: '{% steps.double.output.value %}' } },
        retry: { max_attempts: 3 },
      },
    ],
    else: [{ id: 'small', type: 'stop', input: { output: { small: true } } }],
  },
];
