import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { unnamed, withoutStatementNames } from './unnamed-statements.js';

describe('unnamed statements (DATABASE_PREPARED_STATEMENTS=false)', () => {
  it('drops the name of a query config and keeps its text and values', () => {
    expect(unnamed({ name: 'run.claim', text: 'select run.claim($1)', values: [1] })).toEqual({ text: 'select run.claim($1)', values: [1] });
  });

  it('leaves texts, unnamed configs and submittables as they are', () => {
    const submittable = { name: 'x', submit: () => undefined };
    const plain = { text: 'select 1' };
    expect(unnamed('select 1')).toBe('select 1');
    expect(unnamed(plain)).toBe(plain);
    expect(unnamed(submittable)).toBe(submittable);
  });

  it('makes a client class whose query sends what the base would, without the name', () => {
    const seen: unknown[][] = [];
    class Recording extends pg.Client {}
    Object.defineProperty(Recording.prototype, 'query', { value: (...args: unknown[]) => seen.push(args), writable: true, configurable: true });
    const Client = withoutStatementNames(Recording);
    const client = new Client();
    void client.query({ name: 'spec.unnamed', text: 'select $1::int', values: [7] });
    void client.query('select 2', []);
    expect(seen).toEqual([[{ text: 'select $1::int', values: [7] }], ['select 2', []]]);
  });
});
