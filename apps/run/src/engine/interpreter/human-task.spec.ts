import { describe, expect, it } from '@jest/globals';
import { readHumanTask } from './human-task.js';

const USER = '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8f01';
const NOW = new Date('2026-11-23T10:00:00.000Z');

describe('reading an approval or form step', () => {
  it('reads the task with its deadline and policy', () => {
    expect(
      readHumanTask(
        'approval',
        { title: 'Ok?', assignee: { user_id: USER }, due_in_seconds: 60, on_expiry: { escalate_to: { user_id: USER }, extend_seconds: 30 } },
        NOW,
      ),
    ).toEqual({
      title: 'Ok?',
      description: null,
      assignee: { user_id: USER },
      form: null,
      context: null,
      dueAt: '2026-11-23T10:01:00.000Z',
      onExpiry: { escalate_to: { user_id: USER }, extend_seconds: 30 },
    });
    expect(readHumanTask('form', { title: 'Data', form: { type: 'object' }, due_at: '2026-11-24T00:00:00Z', on_expiry: 'fail' }, NOW)).toMatchObject({
      dueAt: '2026-11-24T00:00:00.000Z',
      onExpiry: 'fail',
    });
  });

  it.each([
    [{}, 'title'],
    [{ title: 'x', assignee: { user_id: 'nope' } }, 'assignee.user_id'],
    [{ title: 'x', assignee: { user_id: USER, team_id: USER } }, 'exactly one'],
    [{ title: 'x', due_in_seconds: -1 }, 'due_in_seconds'],
    [{ title: 'x', due_at: 'tomorrow' }, 'due_at'],
    [{ title: 'x', on_expiry: 'reject' }, 'deadline'],
    [{ title: 'x', due_in_seconds: 5, on_expiry: 'maybe' }, 'on_expiry'],
    [{ title: 'x', due_in_seconds: 5, on_expiry: { escalate_to: { customer_id: USER }, extend_seconds: 5 } }, 'escalate_to'],
  ])('refuses %j naming %s', (input, word) => {
    expect(() => readHumanTask('approval', input, NOW)).toThrow(word);
  });

  it('needs a form for a form step', () => {
    expect(() => readHumanTask('form', { title: 'x' }, NOW)).toThrow('form');
  });
});
