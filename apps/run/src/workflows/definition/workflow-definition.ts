import type { StepDefinition } from '../../engine/steps/step-executor.js';

export interface WorkflowSettings {
  timeout_seconds?: number;
  retention_days?: number;
}

/** What a workflow version stores (API-CONTRACT "A workflow"). */
export interface WorkflowDefinition {
  steps: StepDefinition[];
  input_schema?: Record<string, unknown> | null;
  settings?: WorkflowSettings;
  /** The workflow's name, added when a version is loaded to run (not part of the stored version). */
  name?: string;
}

export interface DefinitionProblem {
  /** The step the problem is in (null for the workflow as a whole). */
  step_id: string | null;
  /** JSON path from the definition root, e.g. `steps[2].then[0].input.url`. */
  path: string;
  message: string;
}

/** Step types the interpreter runs itself; action types come from the StepRegistry. */
export const CONTROL_TYPES = ['condition', 'switch', 'loop', 'parallel', 'delay', 'subworkflow', 'approval', 'form', 'fail', 'stop', 'set'] as const;
export type ControlType = (typeof CONTROL_TYPES)[number];

export function isControlType(type: string): type is ControlType {
  return (CONTROL_TYPES as readonly string[]).includes(type);
}

/** Nested step lists of a control step, with the key that names them in paths. */
export function childLists(step: StepDefinition): { key: string; steps: StepDefinition[] }[] {
  const lists: { key: string; steps: StepDefinition[] }[] = [];
  const add = (key: string, value: unknown) => {
    if (Array.isArray(value)) lists.push({ key, steps: value as StepDefinition[] });
  };
  switch (step.type) {
    case 'condition':
      add('then', step.then);
      add('else', step.else);
      break;
    case 'switch':
      (Array.isArray(step.cases) ? (step.cases as { steps?: unknown }[]) : []).forEach((c, i) => add(`cases[${i}].steps`, c?.steps));
      add('default', step.default);
      break;
    case 'loop':
      add('steps', step.steps);
      break;
    case 'parallel':
      (Array.isArray(step.branches) ? (step.branches as unknown[]) : []).forEach((b, i) => add(`branches[${i}]`, b));
      break;
  }
  return lists;
}
