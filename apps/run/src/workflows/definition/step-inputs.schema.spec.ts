import { describe, expect, it } from '@jest/globals';
import type { Bus } from '@platform/messaging';
import { aiSteps } from '../../engine/steps/ai.steps.js';
import { HttpRequestStep } from '../../engine/steps/http-request.step.js';
import { NotificationStep } from '../../engine/steps/notification.step.js';
import { storageSteps } from '../../engine/steps/storage.steps.js';
import type { StepExecutor } from '../../engine/steps/step-executor.js';
import { WORKFLOW_STEP_SCHEMA } from './definition.schema.js';
import { INPUT_SCHEMA_BY_TYPE, STEP_INPUT_COMPONENTS, STEP_INPUT_SCHEMAS } from './step-inputs.schema.js';

interface Described {
  properties: Record<string, unknown>;
  required?: string[];
}
const described = (type: string) => STEP_INPUT_SCHEMAS[type].schema as Described;
// validate() of these executors reads the definition only: no bus is reached.
const executors: StepExecutor[] = [new HttpRequestStep(), new NotificationStep({} as Bus), ...storageSteps({} as Bus), ...aiSteps({} as Bus)];

// The published input schemas describe what the step validators check, so they cannot drift apart.
describe('the built-in step types’ input schemas', () => {
  it('list every type by a component that is published, in WorkflowStep’s x-input-schema-by-type', () => {
    expect(WORKFLOW_STEP_SCHEMA['x-input-schema-by-type']).toBe(INPUT_SCHEMA_BY_TYPE);
    for (const [type, ref] of Object.entries(INPUT_SCHEMA_BY_TYPE)) {
      expect([type, STEP_INPUT_COMPONENTS[ref.$ref.replace('#/components/schemas/', '')]]).toEqual([type, STEP_INPUT_SCHEMAS[type].schema]);
      expect(WORKFLOW_STEP_SCHEMA.properties.type.description).toContain(type);
    }
  });

  it.each(executors.map((e) => [e.type, e] as const))(
    '%s: a field its validator requires is a required property, and every field it names is a property',
    (type, executor) => {
      const problems = executor.validate!({ id: 's', type, input: {} }).map((p) => p.path.replace(/^input\./, ''));
      expect(problems.length).toBeGreaterThan(0);
      for (const field of problems) expect(Object.keys(described(type).properties)).toContain(field);
      for (const field of described(type).required ?? []) expect(problems).toContain(field);
    },
  );

  it('http.request: its validator accepts every property the schema lists', () => {
    const input = {
      method: 'GET',
      url: 'https://api.example.com/',
      headers: {},
      query: {},
      body: 'x',
      timeout_ms: 1000,
      response_type: 'json',
      fail_on_status: false,
    };
    expect(Object.keys(input).sort()).toEqual(Object.keys(described('http.request').properties).sort());
    expect(new HttpRequestStep().validate({ id: 's', type: 'http.request', input })).toEqual([]);
  });
});
