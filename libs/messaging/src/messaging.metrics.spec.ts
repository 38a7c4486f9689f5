import { describe, expect, it } from '@jest/globals';
import { BusError } from './bus.errors.js';
import { handledOutcome, requestOutcome, subjectTemplate } from './messaging.metrics.js';

describe('messaging metrics', () => {
  it('labels subjects by their template: ids and numbers become *', () => {
    expect(subjectTemplate('account.keys.verify')).toBe('account.keys.verify');
    expect(subjectTemplate('run.executions.start')).toBe('run.executions.start');
    expect(subjectTemplate('run.work.0193f4a2-7c1e-7d3b-9a4f-2b6c8d0e1f3a')).toBe('run.work.*');
    expect(subjectTemplate('task.outcomes.48213')).toBe('task.outcomes.*');
    expect(subjectTemplate('kb.index.v2')).toBe('kb.index.v2');
  });

  it('names how a request ended', () => {
    expect(requestOutcome(new BusError('timeout', 's', 'm'))).toBe('timeout');
    expect(requestOutcome(new BusError('unavailable', 's', 'm'))).toBe('unavailable');
    expect(requestOutcome(new BusError('remote', 's', 'm', { code: 'not_found', status: 404, message: 'm' }))).toBe('rejected');
    expect(requestOutcome(new BusError('remote', 's', 'm', { code: 'internal', status: 500, message: 'm' }))).toBe('failed');
    expect(requestOutcome(new Error('x'))).toBe('unavailable');
  });

  it('names how a handler ended from the error it answered or threw', () => {
    expect(handledOutcome({ code: 'not_found', status: 404, message: 'm' })).toBe('rejected');
    expect(handledOutcome({ code: 'internal', status: 500, message: 'm' })).toBe('failed');
    expect(handledOutcome(new Error('x'))).toBe('failed');
  });
});
