import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT, call, createTenant, e2eEnvironment, sleep } from '@platform/testing';
import { createPlatformClient, type components } from '../src/index.js';
import { SCHEMA_FILE, generateSchema, sameTypes } from '../src/generate.js';

const env = e2eEnvironment();

type Execution = components['schemas']['ExecutionResponseDto'];

describe('@platform-sdk/client, generated from the merged description', () => {
  it('matches the description the platform serves (else run `npm run generate:client`)', async () => {
    const merged = await call<object>(env.gatewayUrl, '/v3/api-docs');
    expect(merged.status).toBe(200);
    const generated = await generateSchema(merged.body);
    const committed = readFileSync(join(REPO_ROOT, SCHEMA_FILE), 'utf8');
    if (!sameTypes(generated, committed)) {
      throw new Error(
        `${SCHEMA_FILE} is out of date with the routes the platform serves: start the platform (npm start) and run \`npm run generate:client\`, then commit the file.`,
      );
    }
  }, 60_000);

  it('creates a workflow with a tenant key and runs it to success, typed end to end', async () => {
    const tenant = await createTenant(env.gatewayUrl, env.adminToken, 'typed-client');
    const client = createPlatformClient(env.gatewayUrl, tenant.test_key);

    const created = await client.POST('/run/workflows', {
      body: { name: 'Double it', steps: [{ id: 'double', type: 'transform', input: { value: '{% input.x * 2 %}' } }] },
    });
    expect(created.response.status).toBe(201);
    const workflow = created.data!;
    expect(workflow).toMatchObject({ name: 'Double it', version: 1, status: 'active' });

    const started = await client.POST('/v1/automations/run', { body: { automation_id: workflow.id, input: { x: 21 } } });
    expect(started.response.status).toBe(202);
    // 200 (the finished execution) is only the answer to a start with `Prefer: wait`.
    const accepted = started.data!;
    if (!('run_id' in accepted)) throw new Error('a start without Prefer: wait is answered 202');
    const runId = accepted.run_id;

    let execution: Execution | undefined;
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline) {
      const polled = await client.GET('/run/executions/{id}', { params: { path: { id: runId } } });
      expect(polled.response.status).toBe(200);
      execution = polled.data!;
      if (['succeeded', 'failed', 'cancelled', 'timed_out'].includes(execution.status)) break;
      await sleep(50);
    }
    expect(execution).toMatchObject({ id: runId, workflow_id: workflow.id, workflow_version: 1, status: 'succeeded', input: { x: 21 } });
    expect(execution!.steps.map((s) => [s.id, s.status])).toEqual([['double', 'succeeded']]);

    // Errors come typed too: the Error schema.
    const missing = await client.GET('/run/executions/{id}', { params: { path: { id: '0194f1c2-7a3b-7c41-9d2e-3f5a6b7c8d9e' } } });
    expect(missing.response.status).toBe(404);
    expect(missing.error).toMatchObject({ error: 'Not Found', status: 404, request_id: expect.any(String) });
  });
});
