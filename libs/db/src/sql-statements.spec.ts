import { beforeAll, describe, expect, it } from '@jest/globals';
import { loadStatementParser, statementsIn } from './sql-statements.js';

describe('statementsIn', () => {
  beforeAll(() => loadStatementParser());

  it('counts the statements of a multi-statement text', () => {
    expect(statementsIn('select 1')).toBe(1);
    expect(statementsIn("BEGIN; SELECT set_config('app.tenant_id', 'x', true)")).toBe(2);
    expect(statementsIn('BEGIN; select 1; COMMIT;')).toBe(3);
    expect(statementsIn('select $1, $2')).toBe(1);
  });

  it('ignores semicolons in quotes, dollar quotes and comments, and empty statements', () => {
    expect(statementsIn('select \'a;b\', "c;""d"')).toBe(1);
    expect(statementsIn("select 'it''s; fine'; select 2")).toBe(2);
    expect(statementsIn('create function f() returns void as $body$ begin perform 1; perform 2; end $body$ language plpgsql')).toBe(1);
    expect(statementsIn('do $$ begin perform 1; end $$; select 1')).toBe(2);
    expect(statementsIn('select 1 -- a; b\n; /* c; */ select 2')).toBe(2);
    expect(statementsIn(';; select 1 ;;')).toBe(1);
    expect(statementsIn('')).toBe(1);
    expect(statementsIn('select from where;')).toBe(1); // not SQL: one round trip PostgreSQL refuses
  });
});
