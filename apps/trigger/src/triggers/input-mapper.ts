import jsonata from 'jsonata';

/** Null when the expression compiles; else the reason. */
export function expressionProblem(expression: string): string | null {
  try {
    jsonata(expression);
    return null;
  } catch (error) {
    return (error as { message?: string }).message ?? 'is not a JSONata expression';
  }
}

/**
 * A trigger's run input: a literal object as is; a JSONata expression evaluated over the firing's
 * context (an object result is the input, anything else is `{ value }`); no input: the context.
 */
export async function mapInput(input: Record<string, unknown> | string | null, context: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (input === null) return context;
  if (typeof input !== 'string') return input;
  const result: unknown = await jsonata(input).evaluate(context);
  if (result !== null && typeof result === 'object' && !Array.isArray(result)) return result as Record<string, unknown>;
  return { value: result ?? null };
}

/** An event filter: fires only when the expression is exactly true. */
export async function filterMatches(filter: string | null, event: Record<string, unknown>): Promise<boolean> {
  if (!filter) return true;
  try {
    return (await jsonata(filter).evaluate(event)) === true;
  } catch {
    return false;
  }
}
