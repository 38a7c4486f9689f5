import { describe, expect, it } from '@jest/globals';
import { BUILT_IN_CONNECTORS } from './builtins/index.js';
import { SLACK_CONNECTOR } from './builtins/messaging.js';
import { validateDefinition } from './definition.validator.js';

describe('connector definitions', () => {
  it.each(BUILT_IN_CONNECTORS.map((c) => [c.id, c] as const))('built-in %s is valid', (_id, def) => {
    expect(validateDefinition(def)).toEqual([]);
  });

  it('names every problem of a broken definition', () => {
    const broken = {
      ...SLACK_CONNECTOR,
      id: 'Bad Id',
      version: 'latest',
      extra: true,
      operations: [SLACK_CONNECTOR.operations[0], { ...SLACK_CONNECTOR.operations[0], http: { method: 'FETCH', path: '/x' } }],
    };
    const fields = validateDefinition(broken).map((p) => p.field);
    expect(fields).toEqual(expect.arrayContaining(['id', 'version', '(definition)', 'operations[1].http.method']));
  });

  it('checks what the schema cannot: unique operations, compilable schemas, the test operation, a base URL', () => {
    const def = {
      ...SLACK_CONNECTOR,
      base_url: null,
      operations: [SLACK_CONNECTOR.operations[0], { ...SLACK_CONNECTOR.operations[0], input_schema: { type: 'nonsense' } }],
      test_operation: { operation: 'missing', input: {} },
    };
    expect(validateDefinition(def).map((p) => p.field)).toEqual(['operations[1].id', 'operations[1].input_schema', 'test_operation.operation', 'base_url']);
  });
});
