import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPO_ROOT } from '@platform/testing';
import type { Bus } from '@platform/messaging';
import { StepRegistry } from '../../engine/step-registry.js';
import { actionSteps } from '../../engine/steps/index.js';
import { DefinitionValidator } from './definition.validator.js';

/**
 * The console's "Add step" offers step types by name (apps/console/src/workflows/definition.ts);
 * it once offered `http` and `notify`, which the API refuses as unknown types. The console cannot
 * import the run service, so the list is read from its source here.
 */
function consoleStepTypes(): string[] {
  const source = readFileSync(join(REPO_ROOT, 'apps/console/src/workflows/definition.ts'), 'utf8');
  const list = /export const STEP_TYPES = \[([^\]]*)\]/.exec(source)?.[1];
  if (!list) throw new Error('STEP_TYPES not found in the console source');
  return [...list.matchAll(/'([^']+)'/g)].map((m) => m[1]);
}

describe("the console's step types", () => {
  // The registry as the service builds it; validating never touches the bus.
  const registry = new StepRegistry();
  registry.register(...actionSteps({} as Bus));
  const validator = new DefinitionValidator(registry);

  it.each(consoleStepTypes())('offers %s, a type the run service knows', (type) => {
    const problems = validator.validate({ steps: [{ id: 's', type }] });
    expect(problems.filter((p) => p.path === 'steps[0].type')).toEqual([]);
  });
});
