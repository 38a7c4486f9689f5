import { describe, expect, it } from '@jest/globals';
import { StepRegistry } from '../../engine/step-registry.js';
import { DefinitionValidator } from './definition.validator.js';
import type { WorkflowDefinition } from './workflow-definition.js';

const validator = new DefinitionValidator(new StepRegistry());
const problemsOf = (step: Record<string, unknown>) =>
  validator.validate({ steps: [{ id: 's', ...step }] } as WorkflowDefinition).map((p) => ({ path: p.path, message: p.message }));
const then = [{ id: 't', type: 'stop' }];

describe('DefinitionValidator: the type of every step field', () => {
  it.each([
    ['else: 5', { type: 'condition', if: true, then, else: 5 }, 'steps[0].else', 'must be a list of steps'],
    ['then: {}', { type: 'condition', if: true, then: {} }, 'steps[0].then', 'must be a list of steps'],
    ['if: {}', { type: 'condition', if: {}, then }, 'steps[0].if', 'must be an expression (`{% … %}`) or a literal boolean, number or string'],
    ['if: []', { type: 'condition', if: [], then }, 'steps[0].if', 'must be an expression (`{% … %}`) or a literal boolean, number or string'],
    ['default: "x"', { type: 'switch', value: 1, cases: [{ when: 1, steps: then }], default: 'x' }, 'steps[0].default', 'must be a list of steps'],
    ['cases: {}', { type: 'switch', value: 1, cases: {} }, 'steps[0].cases', 'must be a list of { when, steps }'],
    ['cases[0].steps: 1', { type: 'switch', value: 1, cases: [{ when: 1, steps: 1 }] }, 'steps[0].cases[0].steps', 'must be a list of steps'],
    ['items: {}', { type: 'loop', items: {}, steps: then }, 'steps[0].items', 'must be an expression (`{% … %}`) or a literal list'],
    ['steps: "x"', { type: 'loop', items: [1], steps: 'x' }, 'steps[0].steps', 'must be a list of steps'],
    ['branches: {}', { type: 'parallel', branches: {} }, 'steps[0].branches', 'must be a list of step lists'],
    ['branches[1]: 2', { type: 'parallel', branches: [then.map((s) => ({ ...s, id: 'p' })), 2] }, 'steps[0].branches[1]', 'must be a list of steps'],
    ['else on another type', { type: 'stop', else: 5 }, 'steps[0].else', 'must be a list of steps'],
  ])('refuses %s, naming the path once', (_what, step, path, message) => {
    expect(problemsOf(step)).toEqual([{ path, message }]);
  });

  it.each([
    ['an expression', { type: 'condition', if: '{% input.x > 1 %}', then }],
    ['a literal boolean, number or string test', { type: 'condition', if: 0, then, else: [] }],
    ['a literal list of items', { type: 'loop', items: [1, 2], steps: then }],
    ['any JSON as a switch value and case', { type: 'switch', value: { a: 1 }, cases: [{ when: [1], steps: then }], default: [] }],
  ])('accepts %s', (_what, step) => {
    expect(problemsOf(step)).toEqual([]);
  });

  it('still says what is missing, once', () => {
    expect(problemsOf({ type: 'condition' })).toEqual([
      { path: 'steps[0].if', message: 'is required' },
      { path: 'steps[0].then', message: 'is required: a list of steps' },
    ]);
    expect(problemsOf({ type: 'loop', items: [], steps: [] })).toEqual([{ path: 'steps[0].steps', message: 'is required: a non-empty list of steps' }]);
  });
});
