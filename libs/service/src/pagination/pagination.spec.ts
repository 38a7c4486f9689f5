import { describe, expect, it } from '@jest/globals';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { PageQueryDto } from './page-query.dto.js';
import { AppError, decodeCursor, DEFAULT_PAGE_SIZE, encodeCursor, pageOfList, toPage, ValidationFailedError, type CursorShape } from '@platform/common';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
const ID = '01a206db-0505-704c-a17c-cdb48dcef8d7';

function decodeError(cursor: string, shape: CursorShape = { id: 'uuid' }): unknown {
  try {
    decodeCursor(cursor, shape);
  } catch (error) {
    return error;
  }
  throw new Error(`expected cursor ${cursor} to be rejected`);
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

const validateQuery = (query: Record<string, string>) => createValidationPipe().transform(query, { type: 'query', metatype: PageQueryDto });

describe('cursors', () => {
  it('round-trips a cursor', () => {
    expect(decodeCursor(encodeCursor({ id: ID }), { id: 'uuid' })).toEqual({ id: ID });
  });

  it('round-trips every kind of field, values that need escaping included', () => {
    const position = { at: '2024-01-01T00:00:00.000Z', id: ID, name: 'ü/+=?&" 😀' };
    expect(decodeCursor(encodeCursor(position), { at: 'timestamp', id: 'uuid', name: 'text' })).toEqual(position);
  });

  it('makes URL-safe cursors', () => {
    expect(encodeCursor({ id: '>>>???' })).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('gives undefined for a missing or empty cursor', () => {
    expect(decodeCursor(undefined, { id: 'uuid' })).toBeUndefined();
    expect(decodeCursor('', { id: 'uuid' })).toBeUndefined();
  });

  it.each<[string, string, CursorShape]>([
    // Every row names its shape: a test function with more parameters than the row gives is read as taking `done`.
    ['garbage', 'garbage', { id: 'uuid' }],
    ['not base64 at all', '%%%***', { id: 'uuid' }],
    ['a JSON array', b64('[1,2]'), { id: 'uuid' }],
    ['JSON null', b64('null'), { id: 'uuid' }],
    ['a JSON string', b64('"id"'), { id: 'uuid' }],
    ['a JSON number', b64('5'), { id: 'uuid' }],
    ['an object without the key', b64('{"other":1}'), { id: 'uuid' }],
    ['an object whose key is not a string', b64('{"id":{"nested":true}}'), { id: 'uuid' }],
    ['a number for an id', b64('{"id":5}'), { id: 'uuid' }],
    // What fuzzing sent (issue 28): it reached `$1::uuid` and PostgreSQL answered with a 500.
    ['an id that is not a UUID', 'eyJpZCI6ImZ6In0', { id: 'uuid' }],
    ['an extra field', encodeCursor({ id: ID, more: 'x' }), { id: 'uuid' }],
    ['a missing field', encodeCursor({ id: ID }), { at: 'timestamp', id: 'uuid' }],
    ['a timestamp that is no date', encodeCursor({ at: 'yesterday', id: ID }), { at: 'timestamp', id: 'uuid' }],
    ['an impossible time', encodeCursor({ at: '2024-02-01T25:00:00.000Z', id: ID }), { at: 'timestamp', id: 'uuid' }],
    ['a day the month does not have', encodeCursor({ at: '2024-02-31T00:00:00.000Z', id: ID }), { at: 'timestamp', id: 'uuid' }],
    ['a date outside what PostgreSQL holds', encodeCursor({ at: '-271821-04-20T00:00:00.000Z', id: ID }), { at: 'timestamp', id: 'uuid' }],
    ['text with NUL', encodeCursor({ name: 'a\u0000' }), { name: 'text' }],
    ['text with an unpaired surrogate', encodeCursor({ name: '\ud800' }), { name: 'text' }],
    ["another list's cursor", encodeCursor({ id: 'slack' }), { connector: 'text' }],
  ])('rejects %s with a 400 invalid_cursor', (_label, cursor, shape) => {
    const error = decodeError(cursor, shape);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).getStatus()).toBe(400);
    expect((error as AppError).code).toBe('invalid_cursor');
    expect((error as AppError).message).toBe('cursor is invalid');
    expect((error as AppError).details).toEqual([{ field: 'cursor', message: 'is not a cursor returned by this list' }]);
  });
});

describe('toPage', () => {
  const rows = [{ id: 'r1' }, { id: 'r2' }, { id: 'r3' }];
  const map = (row: { id: string }) => row.id.toUpperCase();
  const positionOf = (row: { id: string }) => ({ id: row.id });

  it('with limit + 1 rows returns limit items and a cursor at the last one returned', () => {
    const page = toPage(rows, 2, map, positionOf);
    expect(page.data).toEqual(['R1', 'R2']);
    expect(page.next_cursor).not.toBeNull();
    expect(decodeCursor(page.next_cursor ?? undefined, { id: 'text' })).toEqual({ id: 'r2' });
  });

  it('has no next cursor when the rows fit the limit', () => {
    expect(toPage(rows, 3, map, positionOf)).toEqual({ data: ['R1', 'R2', 'R3'], next_cursor: null });
    expect(toPage(rows.slice(0, 1), 3, map, positionOf)).toEqual({ data: ['R1'], next_cursor: null });
  });

  it('gives an empty page for no rows', () => {
    expect(toPage([], 50, map, positionOf)).toEqual({ data: [], next_cursor: null });
  });
});

describe('pageOfList', () => {
  const models = ['openai/gpt-4o', 'local/b', 'local/a', 'openai/gpt-4o-mini', 'anthropic/claude'].map((id) => ({ id }));

  it('pages a list held in memory by its key, with limit and a cursor, to the end', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = pageOfList(models, { limit: 2, cursor }, 'model', (m) => m.id);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((m) => m.id));
      cursor = page.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(['anthropic/claude', 'local/a', 'local/b', 'openai/gpt-4o', 'openai/gpt-4o-mini']);
  });

  it('answers the whole list in one page when it fits, with next_cursor null', () => {
    expect(pageOfList(models, { limit: 50 }, 'model', (m) => m.id)).toMatchObject({ next_cursor: null });
  });

  it("refuses another list's cursor or a forged one with 400 invalid_cursor", () => {
    for (const cursor of [encodeCursor({ operation: 'x' }), encodeCursor({ id: ID }), 'garbage!']) {
      let error: unknown;
      try {
        pageOfList(models, { limit: 2, cursor }, 'model', (m) => m.id);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('invalid_cursor');
    }
  });
});

describe('PageQueryDto', () => {
  it.each(['0', '201', 'abc', '1.5', '-3'])('rejects limit=%s naming the limit field', async (limit) => {
    const error = await rejectionOf(validateQuery({ limit }));
    expect(error).toBeInstanceOf(ValidationFailedError);
    const details = (error as ValidationFailedError).details ?? [];
    expect(details.length).toBeGreaterThan(0);
    expect(details.every((d) => d.field === 'limit')).toBe(true);
  });

  it('defaults the limit to 50 when absent', async () => {
    const query = (await validateQuery({})) as unknown;
    expect(query).toBeInstanceOf(PageQueryDto);
    expect((query as PageQueryDto).limit).toBe(DEFAULT_PAGE_SIZE);
    expect(DEFAULT_PAGE_SIZE).toBe(50);
  });

  it('accepts the bounds and converts them to numbers', async () => {
    expect(((await validateQuery({ limit: '200' })) as PageQueryDto).limit).toBe(200);
    expect(((await validateQuery({ limit: '1' })) as PageQueryDto).limit).toBe(1);
  });

  it('passes a cursor through', async () => {
    expect(((await validateQuery({ cursor: 'abc' })) as PageQueryDto).cursor).toBe('abc');
  });

  it('rejects a cursor longer than 1024 characters', async () => {
    const error = await rejectionOf(validateQuery({ cursor: 'a'.repeat(1025) }));
    expect((error as ValidationFailedError).details?.map((d) => d.field)).toEqual(['cursor']);
  });

  it('rejects an unknown query parameter', async () => {
    const error = await rejectionOf(validateQuery({ limit: '10', page: '2' }));
    expect((error as ValidationFailedError).details).toEqual([{ field: 'page', message: 'is not allowed' }]);
  });
});
