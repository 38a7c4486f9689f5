import { describe, expect, it } from '@jest/globals';
import { AppError } from '../errors/app.errors.js';
import { assertStorableText, findUnstorableText, type RequestPart } from './storable-text.js';

function refusal(value: unknown, part: RequestPart): AppError {
  try {
    assertStorableText(value, part);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('findUnstorableText', () => {
  it('accepts any text PostgreSQL can store, paired surrogates (emoji) included', () => {
    expect(findUnstorableText({ name: 'Grüße 😀', list: ['a', 1, true, null, { k: '\u0001\uffff' }], '😀': 'key' })).toBeNull();
    expect(findUnstorableText('\ud83d\ude00')).toBeNull();
    expect(findUnstorableText(undefined)).toBeNull();
  });

  it('finds NUL in a value at any depth, with its path', () => {
    expect(findUnstorableText({ a: [{ b: 'x' }, { b: 'y\u0000' }] })).toEqual({ path: ['a', 1, 'b'], inKey: false, character: 'nul' });
  });

  it('finds NUL in an object key', () => {
    expect(findUnstorableText({ input: { 'a\u0000b': 1 } })).toEqual({ path: ['input', 'a\u0000b'], inKey: true, character: 'nul' });
  });

  it.each([
    ['a lone high surrogate', 'a\ud800'],
    ['a lone low surrogate', '\udc00b'],
    ['two high surrogates', '\ud800\ud800\udc00'],
    ['surrogates in the wrong order', '\udc00\ud800'],
  ])('finds %s', (_label, text) => {
    expect(findUnstorableText([text])?.character).toBe('surrogate');
  });

  it('looks only into parsed JSON, not into buffers or dates', () => {
    expect(findUnstorableText({ raw: Buffer.from([0, 0, 0]), at: new Date(0) })).toBeNull();
  });
});

describe('assertStorableText', () => {
  it('names a body field by its path (code invalid_character)', () => {
    const error = refusal({ data: { notes: ['ok', 'bad\u0000'] } }, 'body');
    expect(error.code).toBe('invalid_character');
    expect(error.status).toBe(400);
    expect(error.message).toBe("Invalid character in body field 'data.notes[1]': text may not contain NUL (\\u0000)");
    expect(error.details).toEqual([{ field: 'data.notes[1]', message: 'must not contain NUL (\\u0000)' }]);
  });

  it('names the object that has a bad key', () => {
    const error = refusal({ input: { nested: { 'k\ud800': 1 } } }, 'body');
    expect(error.message).toBe("Invalid character in a key of body field 'input.nested': text may not contain an unpaired UTF-16 surrogate");
    expect(error.details).toEqual([{ field: 'input.nested', message: 'must not have a key containing an unpaired UTF-16 surrogate' }]);
  });

  it('names the body itself when it is text, or a top-level key', () => {
    expect(refusal('plain\u0000text', 'body').details).toEqual([{ field: 'body', message: 'must not contain NUL (\\u0000)' }]);
    expect(refusal({ '\u0000': 1 }, 'body').message).toMatch(/^Invalid character in a key of the body:/);
  });

  it('names query and path parameters', () => {
    expect(refusal({ status: 'ok', q: 'a\u0000' }, 'query').message).toBe("Invalid character in query parameter 'q': text may not contain NUL (\\u0000)");
    expect(refusal({ id: '\u0000' }, 'path').details).toEqual([{ field: 'id', message: 'must not contain NUL (\\u0000)' }]);
    expect(refusal({ 'a\u0000': '1' }, 'query').message).toMatch(/^Invalid character in a query parameter name:/);
  });

  it('passes storable values', () => {
    expect(() => assertStorableText({ a: ['b', { c: 'd' }] }, 'body')).not.toThrow();
  });
});
