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

/**
 * The one document an event trigger's filter and `input` both see, and the run's input when the
 * trigger has no `input`: the event's own fields (as the guide lists them), `trigger` as for
 * schedules and webhook triggers, and the event again as `event`, which `input` expressions written
 * when they saw `{ trigger, event }` still read. No event has a field named `trigger` or `event`.
 */
export function eventDocument(trigger: { id: string; name: string }, event: Record<string, unknown>): Record<string, unknown> {
  return { ...event, trigger: { id: trigger.id, name: trigger.name, type: 'event' }, event };
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
