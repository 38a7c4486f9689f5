import { describe, expect, it } from '@jest/globals';
import { SqlFilter } from './sql-filter.js';

describe('SqlFilter', () => {
  it('numbers each ? in order and keeps the values apart from the SQL', () => {
    const filter = new SqlFilter().add('status = ?', "x'; drop table t; --").add('(created_at, id) < (?, ?)', 'at', 'id');
    const limit = filter.param(51);
    expect(filter.where).toBe('where status = $1 and (created_at, id) < ($2, $3)');
    expect(limit).toBe('$4');
    expect(filter.params).toEqual(["x'; drop table t; --", 'at', 'id', 51]);
  });

  it('writes nothing without conditions, and refuses a mismatch of ? and values', () => {
    expect(new SqlFilter().where).toBe('');
    expect(() => new SqlFilter().add('a = ? and b = ?', 1)).toThrow(/more \? than values/);
    expect(() => new SqlFilter().add('a = ?', 1, 2)).toThrow(/more values than \?/);
  });
});
