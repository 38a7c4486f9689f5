import { Injectable } from '@nestjs/common';
import { expressionsIn, syntaxError } from '../../engine/expressions.js';
import { StepRegistry } from '../../engine/step-registry.js';
import type { StepDefinition } from '../../engine/steps/step-executor.js';
import { childLists, isControlType, type DefinitionProblem, type WorkflowDefinition } from './workflow-definition.js';

const ID = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const MAX_STEPS = 500;

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Fields that hold a list of steps, whatever the step's type (the OpenAPI WorkflowStep schema's). */
const STEP_LISTS = ['then', 'else', 'default', 'steps'] as const;

/**
 * The type of every control field a step has, wherever it appears: a step list given a number
 * (`else: 5`) or a test given an object (`if: {}`) was saved and then ignored or read as true.
 * What is missing is checkControl's concern; `value` and `when` may be any JSON value.
 */
function checkFieldTypes(step: StepDefinition, add: (path: string, message: string) => void): void {
  for (const key of STEP_LISTS) if (step[key] !== undefined && !Array.isArray(step[key])) add(key, 'must be a list of steps');
  if (step.if !== undefined && !isScalar(step.if)) add('if', 'must be an expression (`{% … %}`) or a literal boolean, number or string');
  if (step.items !== undefined && typeof step.items !== 'string' && !Array.isArray(step.items))
    add('items', 'must be an expression (`{% … %}`) or a literal list');
  if (step.concurrency !== undefined && (!Number.isInteger(step.concurrency) || (step.concurrency as number) < 1 || (step.concurrency as number) > 50))
    add('concurrency', 'must be an integer from 1 to 50');
  if (step.cases !== undefined) {
    if (!Array.isArray(step.cases)) add('cases', 'must be a list of { when, steps }');
    else
      (step.cases as unknown[]).forEach((c, i) => {
        if (!isObject(c) || !('when' in c)) add(`cases[${i}]`, 'must be { when, steps }');
        else if (!Array.isArray(c.steps)) add(`cases[${i}].steps`, 'must be a list of steps');
      });
  }
  if (step.branches !== undefined) {
    if (!Array.isArray(step.branches)) add('branches', 'must be a list of step lists');
    else (step.branches as unknown[]).forEach((b, i) => (!Array.isArray(b) ? add(`branches[${i}]`, 'must be a list of steps') : undefined));
  }
}

/**
 * Checks a definition at save time and reports every problem at once, each with its step id and
 * path: unknown types, duplicate ids, gotos that are not forward jumps in the same list (which
 * rules out cycles), expressions that do not compile, and what each step type requires.
 */
@Injectable()
export class DefinitionValidator {
  constructor(private readonly registry: StepRegistry) {}

  validate(definition: WorkflowDefinition): DefinitionProblem[] {
    const problems: DefinitionProblem[] = [];
    const seen = new Set<string>();
    let count = 0;
    if (!Array.isArray(definition.steps) || definition.steps.length === 0) {
      return [{ step_id: null, path: 'steps', message: 'must be a non-empty list of steps' }];
    }
    const settings = definition.settings;
    if (settings !== undefined && !isObject(settings)) problems.push({ step_id: null, path: 'settings', message: 'must be an object' });
    if (isObject(settings)) {
      for (const key of ['timeout_seconds', 'retention_days'] as const) {
        const v = settings[key];
        if (v !== undefined && (!Number.isInteger(v) || (v as number) < 1))
          problems.push({ step_id: null, path: `settings.${key}`, message: 'must be a positive integer' });
      }
    }

    const walk = (steps: unknown, path: string) => {
      if (!Array.isArray(steps)) {
        problems.push({ step_id: null, path, message: 'must be a list of steps' });
        return;
      }
      const ids = steps.map((s) => (isObject(s) ? s.id : undefined));
      steps.forEach((raw, index) => {
        const at = `${path}[${index}]`;
        count++;
        if (!isObject(raw)) {
          problems.push({ step_id: null, path: at, message: 'must be an object' });
          return;
        }
        const step = raw as StepDefinition;
        const id = typeof step.id === 'string' ? step.id : null;
        const add = (sub: string, message: string) => problems.push({ step_id: id, path: sub ? `${at}.${sub}` : at, message });
        if (!id || !ID.test(id)) add('id', 'must be 1-64 letters, digits, _ or -, starting with a letter or _');
        else if (seen.has(id)) add('id', `duplicate step id '${id}'`);
        else seen.add(id);
        if (typeof step.type !== 'string') {
          add('type', 'is required');
          return;
        }
        const executor = this.registry.get(step.type);
        if (!isControlType(step.type) && !executor)
          add(
            'type',
            `unknown step type '${step.type}' (known: ${[...this.registry.types(), 'condition', 'switch', 'loop', 'parallel', 'delay', 'subworkflow', 'approval', 'form', 'fail', 'stop', 'set'].join(', ')})`,
          );
        if (step.input !== undefined && !isObject(step.input)) add('input', 'must be an object');
        this.checkPolicy(step, add);
        this.checkGoto(step, index, ids, add);
        checkFieldTypes(step, add);
        this.checkControl(step, add);
        for (const problem of executor?.validate?.(step) ?? []) add(problem.path, problem.message);
        for (const { path: exprPath, source } of expressionsIn(step, '')) {
          const error = syntaxError(source);
          if (error) add(exprPath.replace(/^\./, ''), `invalid expression: ${error}`);
        }
        for (const child of childLists(step)) walk(child.steps, `${at}.${child.key}`);
      });
    };
    walk(definition.steps, 'steps');
    if (count > MAX_STEPS) problems.push({ step_id: null, path: 'steps', message: `at most ${MAX_STEPS} steps in a workflow` });
    return problems;
  }

  private checkPolicy(step: StepDefinition, add: (path: string, message: string) => void): void {
    const { retry, timeout_seconds: timeout } = step;
    if (timeout !== undefined && (typeof timeout !== 'number' || timeout <= 0 || timeout > 86_400))
      add('timeout_seconds', 'must be a number of seconds between 0 and 86400');
    if (retry === undefined) return;
    if (!isObject(retry)) return add('retry', 'must be an object');
    if (retry.max_attempts !== undefined && (!Number.isInteger(retry.max_attempts) || retry.max_attempts < 1 || retry.max_attempts > 20))
      add('retry.max_attempts', 'must be an integer from 1 to 20');
    for (const key of ['backoff_seconds', 'max_backoff_seconds'] as const) {
      const v = retry[key];
      if (v !== undefined && (typeof v !== 'number' || v < 0 || v > 86_400)) add(`retry.${key}`, 'must be a number of seconds from 0 to 86400');
    }
    if (retry.retry_on !== undefined && (!Array.isArray(retry.retry_on) || retry.retry_on.some((c) => typeof c !== 'string')))
      add('retry.retry_on', 'must be a list of error codes');
  }

  private checkGoto(step: StepDefinition, index: number, ids: unknown[], add: (path: string, message: string) => void): void {
    const onError = step.on_error;
    if (onError === undefined || onError === 'fail' || onError === 'continue') return;
    if (!isObject(onError) || typeof onError.goto !== 'string') return add('on_error', "must be 'fail', 'continue' or { goto: <step id> }");
    const target = ids.indexOf(onError.goto);
    if (target === -1) add('on_error.goto', `no step '${onError.goto}' in the same list`);
    // Only forward jumps: a goto to this step or an earlier one would be a cycle.
    else if (target <= index) add('on_error.goto', `'${onError.goto}' is not after this step: a goto may only jump forward (no cycles)`);
  }

  private checkControl(step: StepDefinition, add: (path: string, message: string) => void): void {
    const input = isObject(step.input) ? step.input : {};
    switch (step.type) {
      case 'condition':
        if (step.if === undefined) add('if', 'is required');
        if (step.then === undefined) add('then', 'is required: a list of steps');
        break;
      case 'switch':
        if (step.value === undefined) add('value', 'is required');
        if (step.cases === undefined || (Array.isArray(step.cases) && step.cases.length === 0))
          add('cases', 'is required: a non-empty list of { when, steps }');
        break;
      case 'loop':
        if (step.items === undefined) add('items', 'is required');
        if (step.steps === undefined || (Array.isArray(step.steps) && step.steps.length === 0)) add('steps', 'is required: a non-empty list of steps');
        break;
      case 'parallel':
        if (step.branches === undefined || (Array.isArray(step.branches) && step.branches.length === 0))
          add('branches', 'is required: a non-empty list of step lists');
        break;
      case 'delay':
        if (input.seconds === undefined && input.until === undefined) add('input', 'needs seconds or until');
        if (typeof input.seconds === 'number' && (input.seconds < 0 || input.seconds > 365 * 86_400)) add('input.seconds', 'must be from 0 to one year');
        break;
      case 'subworkflow':
        if (input.workflow_id === undefined) add('input.workflow_id', 'is required');
        break;
      case 'fail':
        if (input.message === undefined) add('input.message', 'is required');
        break;
    }
  }
}
