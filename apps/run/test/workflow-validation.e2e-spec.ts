import { beforeAll, describe, expect, it } from '@jest/globals';
import { createTenant, withKey, type TestTenant } from '@platform/testing';
import { env, gw } from './engine-helpers.js';

type Problem = { step_id: string | null; path: string; message: string };

/** Create and POST /workflows/validate check the same body the same way (issue 28's contract drift). */
describe('workflow validation through the gateway', () => {
  let a: TestTenant;

  beforeAll(async () => {
    a = await createTenant(env.gatewayUrl, env.adminToken, 'wf-validation');
  });

  const file = {
    name: 'Double and notify',
    description: 'What a workflow file holds',
    input_schema: { type: 'object', properties: { x: { type: 'number' } } },
    settings: { timeout_seconds: 300 },
    steps: [
      { id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } },
      { id: 'check', type: 'condition', if: '{% steps.double.output.value > 10 %}', then: [{ id: 'big', type: 'stop' }] },
    ],
  };

  it('validates the body of create as it is, name and description included', async () => {
    for (const path of ['/run/workflows/validate', '/api/v1/workflow/workflows/validate']) {
      const res = await gw(path, { headers: withKey(a.test_key), body: file });
      expect([path, res.status, res.body]).toEqual([path, 200, { valid: true, problems: [] }]);
    }
    // A bare definition still validates; a name is checked as create checks it.
    expect((await gw('/run/workflows/validate', { headers: withKey(a.test_key), body: { steps: file.steps } })).body).toEqual({ valid: true, problems: [] });
    const badName = await gw('/run/workflows/validate', { headers: withKey(a.test_key), body: { ...file, name: '' } });
    expect([badName.status, badName.body.code]).toEqual([400, 'validation_failed']);
    expect(badName.body.details).toEqual([{ field: 'name', message: expect.any(String) }]);
    expect((await gw('/run/workflows', { headers: withKey(a.test_key), body: file })).status).toBe(201);
  });

  it('type-checks every step field in validate and create alike, naming the path', async () => {
    const steps = [
      { id: 'c', type: 'condition', if: {}, then: [{ id: 't', type: 'stop' }], else: 5 },
      { id: 'l', type: 'loop', items: { not: 'a list' }, steps: 'x' },
    ];
    const expected = [
      { step_id: 'c', path: 'steps[0].if', message: 'must be an expression (`{% … %}`) or a literal boolean, number or string' },
      { step_id: 'c', path: 'steps[0].else', message: 'must be a list of steps' },
      { step_id: 'l', path: 'steps[1].steps', message: 'must be a list of steps' },
      { step_id: 'l', path: 'steps[1].items', message: 'must be an expression (`{% … %}`) or a literal list' },
    ];
    const validated = await gw('/run/workflows/validate', { headers: withKey(a.test_key), body: { name: 'typed', steps } });
    expect(validated.status).toBe(200);
    expect(validated.body.valid).toBe(false);
    expect(validated.body.problems as Problem[]).toEqual(expect.arrayContaining(expected));
    expect(validated.body.problems).toHaveLength(expected.length);

    const created = await gw('/run/workflows', { headers: withKey(a.test_key), body: { name: 'typed', steps } });
    expect(created.status).toBe(400);
    expect((created.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual(expected.map((p) => p.path).sort());
  });
});
