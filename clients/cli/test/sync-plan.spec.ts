import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import type { Trigger, Webhook, Workflow } from '@platform-sdk/client';
import { differences } from '../src/workflows/definitions.js';
import { workflowSpec } from '../src/workflows/pull.js';
import { planSync, summary, type RemoteState } from '../src/workflows/sync-plan.js';
import { readWorkflowFolder } from '../src/workflows/workflow-files.js';

const STEPS = [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }];

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'platform-cli-spec-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const remoteWorkflow = (name: string, over: Partial<Workflow> = {}): Workflow =>
  ({ id: `id-${name}`, name, description: null, version: 1, status: 'active', input_schema: null, steps: STEPS, settings: {}, ...over }) as Workflow;

const remoteTrigger = (over: Partial<Trigger> = {}): Trigger =>
  ({
    id: 't1',
    name: 'nightly',
    workflow_id: 'id-a',
    type: 'schedule',
    status: 'enabled',
    input: null,
    schedule: { cron: '0 2 * * *', interval_seconds: null, timezone: 'UTC', start_at: null, end_at: null, misfire: 'fire_once' },
    event: null,
    webhook_id: null,
    ...over,
  }) as Trigger;

describe('workflow files', () => {
  it('reads YAML and JSON, one workflow each', () => {
    const dir = folder({
      'a.yaml': `name: a\nsteps:\n  - id: double\n    type: transform\n    input: { value: "{% input.x * 2 %}" }\n`,
      'b.json': JSON.stringify({ name: 'b', steps: STEPS }),
      'notes.txt': 'ignored',
    });
    const { files, problems } = readWorkflowFolder(dir);
    expect(problems).toEqual([]);
    expect(files.map((f) => [f.spec.name, f.format])).toEqual([
      ['a', 'yaml'],
      ['b', 'json'],
    ]);
    expect(files[0].spec.steps).toEqual(STEPS);
  });

  it('names the file, the path in it and the problem', () => {
    const dir = folder({
      'bad.yaml': 'name: bad\nsteps: []\ntriggers:\n  - name: t\n    type: schedule\nextra: 1\n',
      'syntax.yaml': 'name: [oops\n',
      'dup1.json': JSON.stringify({ name: 'same', steps: STEPS }),
      'dup2.json': JSON.stringify({ name: 'same', steps: STEPS }),
    });
    const { problems } = readWorkflowFolder(dir);
    const short = problems.map((p) => `${p.file.slice(dir.length + 1)}: ${p.path}`);
    expect(short).toEqual(
      expect.arrayContaining([
        'bad.yaml: extra',
        'bad.yaml: steps',
        'bad.yaml: triggers[0].schedule',
        'dup2.json: name',
        expect.stringMatching(/^syntax\.yaml: line \d+, column \d+$/),
      ]),
    );
  });
});

describe('the push plan', () => {
  const files = readWorkflowFolder(
    folder({
      'a.yaml': `name: a\nsteps:\n  - id: double\n    type: transform\n    input: { value: "{% input.x * 2 %}" }\ntriggers:\n  - name: nightly\n    type: schedule\n    schedule: { cron: "0 2 * * *" }\n`,
      'b.json': JSON.stringify({ name: 'b', steps: [{ ...STEPS[0], input: { value: 'changed' } }] }),
      'c.json': JSON.stringify({ name: 'c', steps: STEPS }),
    }),
  ).files;
  const remote: RemoteState = { workflows: [remoteWorkflow('a'), remoteWorkflow('b'), remoteWorkflow('old')], triggers: [remoteTrigger()], webhooks: [] };

  it('creates what is new, updates what differs (naming where), leaves the rest, keeps what is not in the folder', () => {
    const plan = planSync(files, remote, false);
    expect(plan.changes.map((c) => [c.action, c.kind, c.name])).toEqual([
      ['unchanged', 'workflow', 'a'],
      ['unchanged', 'trigger', 'a/nightly'],
      ['update', 'workflow', 'b'],
      ['create', 'workflow', 'c'],
    ]);
    expect(plan.changes[2].diff).toEqual([{ path: 'steps[0].input.value', from: '{% input.x * 2 %}', to: 'changed' }]);
    expect(plan.kept).toEqual(['old']);
  });

  it('deletes what the folder no longer declares only with prune', () => {
    const plan = planSync(files, { ...remote, triggers: [remoteTrigger(), remoteTrigger({ id: 't2', name: 'gone' })] }, true);
    expect(plan.changes.filter((c) => c.action === 'delete').map((c) => [c.kind, c.name])).toEqual([
      ['trigger', 'a/gone'],
      ['workflow', 'old'],
    ]);
    expect(summary(plan.changes)).toEqual({ create: 1, update: 1, unchanged: 2, delete: 2 });
  });

  it('sees a changed trigger and one whose type changed', () => {
    const moved = planSync(files, { ...remote, triggers: [remoteTrigger({ schedule: { ...remoteTrigger().schedule!, timezone: 'Europe/Berlin' } })] }, false);
    expect(moved.changes[1]).toMatchObject({ action: 'update', paths: ['schedule.timezone'] });
    const retyped = planSync(
      files,
      { ...remote, triggers: [remoteTrigger({ type: 'event', schedule: null, event: { type: 'run.execution.failed', filter: null } })] },
      false,
    );
    expect(retyped.changes[1]).toMatchObject({ action: 'update', recreate: true });
  });

  it('pulls into a form that plans as unchanged', () => {
    const hook = { id: 'h1', name: 'in', workflow_id: 'id-a', verification: { type: 'hmac' }, response: { mode: 'async' }, enabled: true } as Webhook;
    const state: RemoteState = {
      workflows: [remoteWorkflow('a', { description: 'd', settings: { timeout_seconds: 60 } })],
      triggers: [
        remoteTrigger({ type: 'webhook', schedule: null, webhook_id: 'h1', input: '{ "x": 1 }' }),
        remoteTrigger({ id: 't3', name: 'tz', status: 'disabled' }),
      ],
      webhooks: [hook],
    };
    const spec = workflowSpec(state.workflows[0], state);
    expect(spec.triggers![0]).toEqual({ name: 'nightly', type: 'webhook', webhook: 'in', input: '{ "x": 1 }' });
    const plan = planSync([{ file: 'a.yaml', format: 'yaml', spec }], state, true);
    expect(plan.changes.map((c) => c.action)).toEqual(['unchanged', 'unchanged', 'unchanged', 'unchanged']);
  });

  it('compares JSON regardless of key order', () => {
    expect(differences({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toEqual([]);
    expect(differences({ a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 3 }] })).toEqual([{ path: 'b[1].c', from: 2, to: 3 }]);
  });
});
