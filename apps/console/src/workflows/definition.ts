import type { CreateWorkflowRequest, WorkflowStep } from '@platform-sdk/client';

/** What the editor edits: the body of `POST /run/workflows` (and of `PUT /run/workflows/{id}`). */
export type Definition = CreateWorkflowRequest;

/**
 * Step types offered by the editor's "Add step" (each a type the run service knows:
 * apps/run's console-step-types.spec checks this list); the JSON side accepts any type the API knows.
 */
export const STEP_TYPES = ['transform', 'http.request', 'code', 'condition', 'approval', 'form', 'notification', 'delay', 'subworkflow'] as const;

export type ParseResult = { ok: true; definition: Definition } | { ok: false; error: string };

/** The JSON side as text, formatted the same way every time so edits on the graph read as small diffs. */
export function toText(definition: Definition): string {
  return JSON.stringify(definition, null, 2);
}

/**
 * The JSON side read back: a syntax error or a missing `steps` array keeps the graph as it was
 * (the editor shows the error beside the text); anything the API checks is left to validation.
 */
export function parseText(text: string): ParseResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not JSON: ${(error as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, error: 'The definition must be a JSON object' };
  const record = value as Record<string, unknown>;
  if (typeof record.name !== 'string') return { ok: false, error: '`name` must be a string' };
  if (!Array.isArray(record.steps)) return { ok: false, error: '`steps` must be an array' };
  for (const [i, step] of (record.steps as unknown[]).entries()) {
    if (typeof step !== 'object' || step === null) return { ok: false, error: `steps[${i}] must be an object` };
    const s = step as Record<string, unknown>;
    if (typeof s.id !== 'string' || typeof s.type !== 'string') return { ok: false, error: `steps[${i}] needs a string \`id\` and \`type\`` };
  }
  return { ok: true, definition: value as Definition };
}

function isStep(value: unknown): value is WorkflowStep {
  return typeof value === 'object' && value !== null && typeof (value as WorkflowStep).id === 'string' && typeof (value as WorkflowStep).type === 'string';
}

/** A step id not used yet: `approval`, then `approval_2`, … */
export function freshId(steps: readonly WorkflowStep[], type: string): string {
  const used = new Set(allSteps(steps).map((s) => s.id));
  if (!used.has(type)) return type;
  for (let n = 2; ; n++) if (!used.has(`${type}_${n}`)) return `${type}_${n}`;
}

/** Every step, nested ones (then/else/steps/branches/cases/default) included, depth first. */
export function allSteps(steps: readonly WorkflowStep[]): WorkflowStep[] {
  return steps.flatMap((step) => [step, ...allSteps(children(step).flatMap((c) => c.steps))]);
}

/** The nested sequences of a control step, each with the label its edge gets. */
export function children(step: WorkflowStep): { label: string; steps: WorkflowStep[] }[] {
  // The JSON side may hold anything while it is typed (`"else": 5`): only arrays of steps are
  // drawn, the schema check underlines the rest.
  const out: { label: string; steps: WorkflowStep[] }[] = [];
  const add = (label: string, steps: unknown) => {
    if (Array.isArray(steps)) out.push({ label, steps: steps.filter(isStep) });
  };
  add('then', step.then);
  add('else', step.else);
  add('each', step.steps);
  if (Array.isArray(step.branches)) step.branches.forEach((branch, i) => add(`branch ${i + 1}`, branch));
  if (Array.isArray(step.cases)) step.cases.forEach((c, i) => add(`case ${i + 1}`, (c as { steps?: unknown } | null)?.steps ?? []));
  add('default', step.default);
  return out;
}

/** Adds a step of `type` after the top-level step `afterId` (at the end when absent). */
export function addStep(definition: Definition, type: string, afterId?: string): { definition: Definition; id: string } {
  const id = freshId(definition.steps, type);
  const step: WorkflowStep = { id, type, input: defaultInput(type) };
  const steps = [...definition.steps];
  const at = afterId === undefined ? -1 : steps.findIndex((s) => s.id === afterId);
  steps.splice(at === -1 ? steps.length : at + 1, 0, step);
  return { definition: { ...definition, steps }, id };
}

/** Removes the step `id` wherever it is nested. */
export function removeStep(definition: Definition, id: string): Definition {
  return { ...definition, steps: mapSequences(definition.steps, (seq) => seq.filter((s) => s.id !== id)) };
}

/** Moves the step `id` one place up (-1) or down (+1) within its own sequence; at an end, nothing changes. */
export function moveStep(definition: Definition, id: string, by: -1 | 1): Definition {
  return {
    ...definition,
    steps: mapSequences(definition.steps, (seq) => {
      const i = seq.findIndex((s) => s.id === id);
      const j = i + by;
      if (i === -1 || j < 0 || j >= seq.length) return seq;
      const next = [...seq];
      [next[i], next[j]] = [next[j], next[i]];
      return next;
    }),
  };
}

/** Replaces the step `id` (its new id, type or input) wherever it is nested. */
export function updateStep(definition: Definition, id: string, change: Partial<WorkflowStep>): Definition {
  return { ...definition, steps: mapSequences(definition.steps, (seq) => seq.map((s) => (s.id === id ? { ...s, ...change } : s))) };
}

export function findStep(definition: Definition, id: string): WorkflowStep | undefined {
  return allSteps(definition.steps).find((s) => s.id === id);
}

/** Applies `f` to the top-level sequence and to every nested one. */
function mapSequences(steps: WorkflowStep[], f: (seq: WorkflowStep[]) => WorkflowStep[]): WorkflowStep[] {
  const seq = (s: WorkflowStep[] | undefined) => (s === undefined ? undefined : mapSequences(s, f));
  return f(steps).map((step) => {
    if (children(step).length === 0) return step;
    const next: WorkflowStep = { ...step };
    if (step.then) next.then = seq(step.then);
    if (step.else) next.else = seq(step.else);
    if (step.steps) next.steps = seq(step.steps);
    if (step.default) next.default = seq(step.default);
    if (step.branches) next.branches = step.branches.map((b) => mapSequences(b, f));
    if (step.cases) next.cases = step.cases.map((c) => (c.steps ? { ...c, steps: mapSequences(c.steps, f) } : c));
    return next;
  });
}

function defaultInput(type: string): Record<string, unknown> {
  switch (type) {
    case 'approval':
      return { title: 'Approve?' };
    case 'transform':
      return { value: '{% input %}' };
    case 'delay':
      return { seconds: 1 };
    default:
      return {};
  }
}
