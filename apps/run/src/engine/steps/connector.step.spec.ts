import { describe, expect, it } from '@jest/globals';
import type { Bus } from '@platform/messaging';
import { ConnectorStep } from './connector.step.js';

// validate() never touches the bus: the definition is checked when the workflow is saved.
const step = new ConnectorStep({} as Bus);
const problems = (input: Record<string, unknown>) => step.validate({ id: 's', type: 'connector', input }).map((p) => p.path);

describe('connector step definition checks', () => {
  it('accepts a connection id or a customer connection with an operation', () => {
    expect(problems({ connection_id: '{% input.conn %}', operation: 'post_message', params: {} })).toEqual([]);
    expect(problems({ customer_connection: 'slack', operation: 'post_message', max_retries: 0 })).toEqual([]);
  });

  it('names what is missing, doubled or unknown', () => {
    expect(problems({ connection_id: 'x' })).toEqual(['input.operation']);
    expect(problems({ operation: 'x' })).toEqual(['input.connection_id']);
    expect(problems({ connection_id: 'x', customer_connection: 'slack', operation: 'x' })).toEqual(['input.connection_id']);
    expect(problems({ connection_id: 'x', operation: 'x', token: 'secret' })).toEqual(['input.token']);
  });
});
