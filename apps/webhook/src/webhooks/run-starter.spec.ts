import { describe, expect, it } from '@jest/globals';
import { Bus, BusError } from '@platform/messaging';
import { RunStarter } from './run-starter.js';

const delivery = {
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d01',
  webhook_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d02',
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d03',
  tenant_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d04',
  environment_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d05',
  scope_id: null,
  run_input: {},
  run_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d06',
};

/** A starter whose run service fails with `error`. */
const failingWith = (error: Error) =>
  new RunStarter({
    request: () => Promise.reject(error),
  } as unknown as Bus);

describe('RunStarter: how a failed start is tried again', () => {
  it.each([
    [
      'the run service refused it (a 4xx)',
      new BusError('remote', 's', 'Workflow not found', { code: 'not_found', status: 404, message: 'Workflow not found' }),
      { permanent: true },
    ],
    [
      'the run service failed on it (a 5xx)',
      new BusError('remote', 's', 'boom', { code: 'internal', status: 500, message: 'boom' }),
      { permanent: false, counts: true },
    ],
    ['it could not be sent', new Error('connection closed'), { permanent: false, counts: true }],
    [
      'it is larger than NATS takes (refused before sending)',
      new BusError('too_large', 's', 'too large', { code: 'input_too_large', status: 413, message: 'too large' }),
      { permanent: true },
    ],
    ['the run service did not answer in time', new BusError('timeout', 's', 'did not answer'), { permanent: false, counts: false }],
    ['no run service is there', new BusError('unavailable', 's', 'No service answers s'), { permanent: false, counts: false }],
  ])('%s → %j', async (_case, error, expected) => {
    const outcome = await failingWith(error).start(delivery);
    expect(outcome).toMatchObject({ runId: null, ...expected });
  });
});
