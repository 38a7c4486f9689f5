import { describe, expect, it } from '@jest/globals';
import { describeNatsError } from './nats.errors.js';

const URL = 'nats://nats.internal:4222';

describe('describeNatsError', () => {
  it.each([
    ['a code', Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' })],
    ['a cause code', Object.assign(new Error('connect failed'), { cause: { code: 'ECONNREFUSED' } })],
    ['the message', new Error('connect ECONNREFUSED 127.0.0.1:4222')],
    ['a CONNECTION_REFUSED code', { code: 'CONNECTION_REFUSED', message: 'refused' }],
  ])('for a refused connection given by %s names the URL and says how to start NATS', (_label, error) => {
    const message = describeNatsError(error, URL);
    expect(message).toContain(`Cannot reach NATS at ${URL} (connection refused)`);
    expect(message).toContain('docker compose up -d nats');
    expect(message).toContain('nats-server -js');
    expect(message).toContain('NATS_URL');
  });

  it.each([
    ['a TIMEOUT code', { code: 'TIMEOUT', message: 'x' }],
    ['the message', new Error('Connection timeout')],
  ])('reports a timeout given by %s', (_label, error) => {
    expect(describeNatsError(error, URL)).toBe(
      `NATS at ${URL} did not answer in time. Check that it is running (\`docker compose up -d nats\`) or set NATS_URL.`,
    );
  });

  it('passes any other error message through', () => {
    expect(describeNatsError(new Error('Authorization Violation'), URL)).toBe(`NATS at ${URL} failed: Authorization Violation`);
    expect(describeNatsError('boom', URL)).toBe(`NATS at ${URL} failed: boom`);
  });
});
