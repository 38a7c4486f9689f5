import jsonata from 'jsonata';

/**
 * Expressions are JSONata (API-CONTRACT): a string that is exactly `{% <expression> %}` is
 * evaluated, every other value is literal. Compiled expressions are cached: a workflow version is
 * immutable, so the same strings come back on every run.
 */
const EXPRESSION = /^\{%([\s\S]*)%\}$/;
const cache = new Map<string, jsonata.Expression>();
const CACHE_LIMIT = 10_000;

/**
 * Every evaluation is bounded, so one tenant's runaway expression cannot hold a worker that runs
 * everyone's steps: 1 s of evaluation (checked at each step of it), 1,000 nested calls and
 * sequences of 1,000,000 items. Past a limit the step fails with `expression_error` and says why.
 */
export const EXPRESSION_LIMITS = { timeout: 1000, stack: 1000, sequence: 1_000_000 } as const;

/**
 * JSONata evaluates through promises that are already resolved, so a long evaluation runs as one
 * unbroken chain of microtasks and no I/O happens meanwhile. Its entry hook (awaited at every
 * step of every evaluation) hands the event loop back now and then, so other runs, requests and
 * lease renewals go on while an expression works towards its limit.
 */
const ENTRY_HOOK = Symbol.for('jsonata.__evaluate_entry');
const STEPS_PER_SLICE = 1000;
let stepsSinceYield = 0;
function yieldNowAndThen(): Promise<void> | undefined {
  if (++stepsSinceYield < STEPS_PER_SLICE) return undefined;
  stepsSinceYield = 0;
  return new Promise((resolve) => setImmediate(resolve));
}

export function expressionOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const match = EXPRESSION.exec(value.trim());
  return match ? match[1].trim() : undefined;
}

export function compile(source: string): jsonata.Expression {
  let compiled = cache.get(source);
  if (!compiled) {
    compiled = jsonata(source, { ...EXPRESSION_LIMITS });
    (compiled.assign as unknown as (name: symbol, value: unknown) => void)(ENTRY_HOOK, yieldNowAndThen);
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
    cache.set(source, compiled);
  }
  return compiled;
}

/** A syntax error of an expression, with its position, or undefined when it compiles. */
export function syntaxError(source: string): string | undefined {
  try {
    compile(source);
    return undefined;
  } catch (error) {
    const e = error as { message?: string; position?: number };
    return `${e.message ?? 'invalid expression'}${e.position !== undefined ? ` at position ${e.position}` : ''}`;
  }
}

export class ExpressionError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
    this.name = 'ExpressionError';
  }
}

/** Evaluates every expression inside `value` (objects and arrays walked), leaving literals alone. */
export async function evaluate(value: unknown, bindings: Record<string, unknown>, path = 'input'): Promise<unknown> {
  const source = expressionOf(value);
  if (source !== undefined) {
    try {
      const result = (await compile(source).evaluate(bindings)) as unknown;
      return result === undefined ? null : normalise(result);
    } catch (error) {
      throw new ExpressionError(path, (error as Error).message);
    }
  }
  if (Array.isArray(value)) return Promise.all(value.map((v, i) => evaluate(v, bindings, `${path}[${i}]`)));
  if (value && typeof value === 'object') {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await evaluate(v, bindings, `${path}.${k}`)] as const));
    return Object.fromEntries(entries);
  }
  return value;
}

/** JSONata results can carry its sequence markers; stored outputs must be plain JSON. */
function normalise(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value)) as unknown;
}

/** Every expression string inside a value, with its path (for validation). */
export function* expressionsIn(value: unknown, path: string): Generator<{ path: string; source: string }> {
  const source = expressionOf(value);
  if (source !== undefined) {
    yield { path, source };
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* expressionsIn(value[i], `${path}[${i}]`);
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) yield* expressionsIn(v, `${path}.${k}`);
  }
}
