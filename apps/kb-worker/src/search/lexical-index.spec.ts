import { describe, expect, it } from '@jest/globals';
import { nearestExact } from './exact-index.js';
import { LexicalIndex, tsRankOr } from './lexical-index.js';
import type { SearchSnapshot } from './search-snapshots.js';
import { TopK } from './top-k.js';

/** Chunks as lexeme lists (a lexeme repeated = more positions), ids c0, c1, … */
function index(chunks: string[][]): { lexical: LexicalIndex; ids: string[] } {
  const rows = chunks.map((words) => {
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return { lexemes: [...counts.keys()], counts: [...counts.values()] };
  });
  return { lexical: LexicalIndex.build(rows), ids: chunks.map((_, i) => `c${i}`) };
}

describe('full-text ranking in process', () => {
  it('reproduces PostgreSQL ts_rank (float4) for OR queries', () => {
    // select ts_rank(to_tsvector('simple', …), '… | …'::tsquery) on PostgreSQL 15
    expect(tsRankOr([1], 2)).toBe(Math.fround(0.030396355)); // 'foo bar' vs 'foo | baz'
    expect(tsRankOr([1, 3], 2)).toBe(Math.fround(0.07176917)); // 'foo foo bar foo' vs 'foo | bar'
    expect(tsRankOr([1, 1], 2)).toBe(Math.fround(0.06079271)); // 'foo bar' vs 'foo | bar'
    expect(tsRankOr([2], 1)).toBe(Math.fround(0.075990885)); // 'foo foo' vs 'foo'
  });

  it('sums inverse document frequencies: a rare term outweighs a common one, any term matches', () => {
    const { lexical, ids } = index([['common', 'rare'], ['common'], ['common'], ['common', 'other'], ['rare']]);
    const ranked = lexical.rank(['common', 'rare', 'absent'], ids.length, ids, null, 10).map((i) => ids[i]);
    expect(ranked).toEqual(['c0', 'c4', 'c1', 'c2', 'c3']);
  });

  it('breaks equal scores by ts_rank (more occurrences first), then by id', () => {
    const { lexical, ids } = index([['term'], ['term', 'term'], ['term'], ['none']]);
    expect(lexical.rank(['term'], ids.length, ids, null, 10).map((i) => ids[i])).toEqual(['c1', 'c0', 'c2']);
    expect(lexical.rank(['term'], ids.length, ids, null, 2).map((i) => ids[i])).toEqual(['c1', 'c0']);
  });

  it('leaves filtered-out chunks out without changing the frequencies', () => {
    const { lexical, ids } = index([['a', 'b'], ['a'], ['b'], ['b']]);
    expect(lexical.rank(['a', 'b'], ids.length, ids, (i) => i !== 0, 10).map((i) => ids[i])).toEqual(['c1', 'c2', 'c3']);
    expect(lexical.rank(['zzz'], ids.length, ids, null, 10)).toEqual([]);
  });
});

describe('bounded top-k', () => {
  it('keeps the same best items, in the same order, as a full sort', () => {
    let x = 7;
    const values = Array.from({ length: 2000 }, () => (x = (x * 1103515245 + 12345) % 2147483648) % 500);
    const better = (a: { v: number; i: number }, b: { v: number; i: number }) => (a.v !== b.v ? a.v > b.v : a.i < b.i);
    const top = new TopK(25, better);
    values.forEach((v, i) => top.push({ v, i }));
    const sorted = values.map((v, i) => ({ v, i })).sort((a, b) => b.v - a.v || a.i - b.i);
    expect(top.sorted()).toEqual(sorted.slice(0, 25));
  });
});

describe('exact vector search', () => {
  it('ranks by cosine similarity, skipping zero and filtered-out vectors', () => {
    const raw = [
      [1, 0, 0],
      [0, 1, 0],
      [0.9, 0.1, 0],
      [0, 0, 0],
      [2, 0, 0],
    ];
    const snapshot: SearchSnapshot = {
      version: 'v',
      ids: raw.map((_, i) => `c${i}`),
      documents: raw.map((_, i) => `d${i}`),
      dims: 3,
      vectors: Float32Array.from(raw.flat()),
      norms: Float32Array.from(raw.map((v) => Math.hypot(...v))),
      lexical: LexicalIndex.build([]),
    };
    expect(nearestExact(snapshot, [1, 0, 0], null, 3)).toEqual(['c0', 'c4', 'c2']);
    expect(nearestExact(snapshot, [1, 0, 0], (i) => i !== 0, 2)).toEqual(['c4', 'c2']);
    expect(nearestExact(snapshot, [0, 0, 0], null, 3)).toEqual([]);
    expect(nearestExact(snapshot, [1, 0], null, 3)).toEqual([]);
  });
});
