import type { EntityManager } from 'typeorm';

/**
 * Read-only views of platform data a query may name besides the caller's data tables. Each is a
 * `security_invoker` view in the `query` schema, created by the migration of the service that
 * owns the data (run: workflows, executions; task: tasks), so RLS of the underlying tables applies
 * to the caller exactly as for its own tables. Until a view exists, naming it answers 400.
 */
export const PLATFORM_VIEWS: Readonly<Record<string, { schema: string; view: string }>> = {
  workflows: { schema: 'query', view: 'workflows' },
  executions: { schema: 'query', view: 'executions' },
  tasks: { schema: 'query', view: 'tasks' },
};

export function isPlatformView(name: string): boolean {
  return Object.hasOwn(PLATFORM_VIEWS, name);
}

/** Which of the named views exist in this database (to_regclass reads nothing the caller could not). */
export async function existingViews(m: EntityManager, wanted: string[]): Promise<Set<string>> {
  if (!wanted.length) return new Set();
  const rows = await m.query<{ name: string }[]>(
    `select v.name from unnest($1::text[], $2::text[]) as v(name, qualified) where to_regclass(v.qualified) is not null`,
    [wanted, wanted.map((n) => `${PLATFORM_VIEWS[n].schema}.${PLATFORM_VIEWS[n].view}`)],
  );
  return new Set(rows.map((r) => r.name));
}
