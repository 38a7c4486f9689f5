import { describe, expect, it } from '@jest/globals';
import { MAX_JSON_DEPTH, exceedsJsonDepth, findJsonDepthViolation } from './json-depth.js';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('findJsonDepthViolation', () => {
  it('accepts documents up to the limit', () => {
    expect(findJsonDepthViolation(bytes(nested(MAX_JSON_DEPTH)))).toBeNull();
    expect(findJsonDepthViolation(bytes('{"a":{"b":[1,2,{"c":"[[[[[["}]}}'))).toBeNull();
  });

  it('refuses deeper nesting and names the top-level field it sits in', () => {
    expect(findJsonDepthViolation(bytes(nested(10_000)))).toEqual({ field: null, depth: MAX_JSON_DEPTH + 1 });
    expect(findJsonDepthViolation(bytes(`{"name":"x","input":${nested(5000)}}`))).toEqual({ field: 'input', depth: MAX_JSON_DEPTH + 1 });
  });

  it('ignores brackets and quotes inside strings', () => {
    const text = `{"a":"${'['.repeat(500)}\\"${'{'.repeat(500)}"}`;
    expect(findJsonDepthViolation(bytes(text))).toBeNull();
  });
});

describe('exceedsJsonDepth', () => {
  it('walks parsed values without recursion', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(exceedsJsonDepth(deep)).toBe(true);
    expect(exceedsJsonDepth({ a: [{ b: 1 }] })).toBe(false);
  });
});
