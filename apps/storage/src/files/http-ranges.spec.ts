import { describe, expect, it } from '@jest/globals';
import { attachmentDisposition, parseRange } from './http-ranges.js';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-9', { kind: 'partial', range: { start: 0, end: 9 } }],
    ['bytes=90-', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-10', { kind: 'partial', range: { start: 90, end: 99 } }],
    ['bytes=-500', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=50-5000', { kind: 'partial', range: { start: 50, end: 99 } }],
    ['bytes= 5 - 6', { kind: 'partial', range: { start: 5, end: 6 } }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['bytes=100-200', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=99999999999999999999-', { kind: 'unsatisfiable' }],
    // Ignored as the RFC allows: malformed, backwards, several ranges, other units.
    ['bytes=9-1', { kind: 'full' }],
    ['bytes=0-1,5-6', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
    ['items=0-1', { kind: 'full' }],
    ['garbage', { kind: 'full' }],
  ])('%s of 100 bytes → %j', (header, expected) => {
    expect(parseRange(header, 100)).toEqual(expected);
  });

  it('has no satisfiable range in an empty file', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-1', 0)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('attachmentDisposition', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('Grüße "2026" (v1)*.txt')).toBe(
      `attachment; filename="Gr__e _2026_ (v1)*.txt"; filename*=UTF-8''Gr%C3%BC%C3%9Fe%20%222026%22%20%28v1%29%2A.txt`,
    );
    expect(attachmentDisposition("it's.txt")).toContain("filename*=UTF-8''it%27s.txt");
  });
});
