import { describe, expect, it } from '@jest/globals';
import type { TenantDb } from '@platform/db';
import { Bus, BusError } from '@platform/messaging';
import type { TriggerConfig } from '../config/trigger.config.js';
import type { TriggerExecutionRow } from './trigger.record.js';
import { TriggerRuns } from './trigger-runs.js';

const firing = {
  tenant_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d01',
  environment_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d02',
  scope_id: null,
  id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d03',
  trigger_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d04',
  workflow_id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d05',
  fire_key: 'evt',
  run_input: {},
} as unknown as TriggerExecutionRow;

/** Starts the firing against a run service failing with `error`; answers the statements written. */
async function startFailingWith(error: Error): Promise<string[]> {
  const written: string[] = [];
  const db = { run: (_ctx: unknown, work: (m: unknown) => Promise<unknown>) => work({ query: (sql: string) => written.push(sql) }) };
  const bus = { request: () => Promise.reject(error) };
  await new TriggerRuns(bus as unknown as Bus, db as unknown as TenantDb, { TRIGGER_START_MAX_ATTEMPTS: 10 } as TriggerConfig).start(firing, 'event');
  return written.map((sql) => (/attempts \+ 1,\s+status = case/.test(sql) ? 'counted failure' : /set run_id/.test(sql) ? 'start recorded' : sql));
}

describe('TriggerRuns: what a failed start writes', () => {
  it.each([
    [
      'the run service refused it (a 4xx): recorded failed at once',
      new BusError('remote', 's', 'gone', { code: 'not_found', status: 404, message: 'gone' }),
      ['start recorded'],
    ],
    [
      'the run service failed on it (a 5xx): a counted failure',
      new BusError('remote', 's', 'boom', { code: 'internal', status: 500, message: 'boom' }),
      ['counted failure'],
    ],
    ['it could not be sent: a counted failure', new Error('connection closed'), ['counted failure']],
    [
      'it is larger than NATS takes: recorded failed at once',
      new BusError('too_large', 's', 'too large', { code: 'input_too_large', status: 413, message: 'too large' }),
      ['start recorded'],
    ],
    ['the run service did not answer: nothing (the age limit applies)', new BusError('timeout', 's', 'late'), []],
    ['no run service is there: nothing (the age limit applies)', new BusError('unavailable', 's', 'No service answers s'), []],
  ])('%s', async (_case, error, written) => {
    expect(await startFailingWith(error)).toEqual(written);
  });
});
