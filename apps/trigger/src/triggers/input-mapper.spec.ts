import { describe, expect, it } from '@jest/globals';
import { eventDocument, filterMatches, mapInput } from './input-mapper.js';

describe("an event trigger's document", () => {
  const event = {
    type: 'run.execution.failed',
    execution_id: 'e1',
    workflow_id: 'w1',
    status: 'failed',
    error: { code: 'bad' },
    at: '2026-11-28T00:00:00.000Z',
  };
  const doc = eventDocument({ id: 't1', name: 'on failure' }, event);

  it('is the same for the filter and the input: the event itself, with trigger beside it', async () => {
    expect(await filterMatches('status = "failed" and error.code = "bad" and trigger.name = "on failure"', doc)).toBe(true);
    expect(await mapInput('{ "run": execution_id, "code": error.code, "by": trigger.id }', doc)).toEqual({ run: 'e1', code: 'bad', by: 't1' });
  });

  it('still answers input expressions written against { trigger, event }', async () => {
    expect(await mapInput('{ "run": event.execution_id, "name": trigger.name }', doc)).toEqual({ run: 'e1', name: 'on failure' });
    expect(await filterMatches('event.status = "failed"', doc)).toBe(true);
  });

  it('is the run input of a trigger without input', async () => {
    expect(await mapInput(null, doc)).toEqual({ ...event, trigger: { id: 't1', name: 'on failure', type: 'event' }, event });
  });
});
