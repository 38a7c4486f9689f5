import type { Command } from 'commander';
import { command, handle, type Context } from '../command.js';

/** A `--param` value: JSON when it reads as JSON (numbers, true, arrays), else the text itself. */
function param(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

async function query(ctx: Context, o: { param?: string[] }, sql: string): Promise<void> {
  const result = await ctx.client().query(sql, (o.param ?? []).map(param), { signal: ctx.signal });
  if (ctx.out.json) return ctx.out.printJson(result);
  ctx.out.printTable(
    result.rows,
    result.columns.map((c) => ({ header: c.name, value: (row: Record<string, unknown>) => row[c.name] })),
    '(no rows)',
  );
  ctx.out.note(`${result.row_count} row(s)${result.truncated ? ' (truncated: narrow the query or add a limit)' : ''}`);
}

export function queryCommand(): Command {
  return command('query', 'One SQL SELECT over your data tables and the platform views (workflows, executions)', [
    'platform query "select status, count(*) from executions group by status"',
    'platform query "select * from orders where status = $1 and amount > $2" --param paid --param 100',
    'platform query "select id from executions where status = \'failed\'" --json | jq -r ".rows[].id"',
  ])
    .argument('<sql>', 'the query; values as $1, $2, … with --param')
    .option('--param <value>', 'a value for $1, $2, … in order (repeat it); JSON when it reads as JSON', (v: string, all: string[] = []) => [...all, v])
    .action(handle(query));
}
