import { describe, expect, it } from '@jest/globals';
import type { KbChunkHit } from '@platform/messaging';
import { citationsOf } from './answer.js';
import { reciprocalRankFusion } from './rrf.js';

const hit = (n: number, text: string): KbChunkHit => ({
  document_id: `d${n}`,
  chunk_id: `c${n}`,
  document_name: `doc${n}`,
  text,
  score: 0,
  position: { index: 0, start: 0, end: text.length, heading: null },
});

describe('reciprocal rank fusion', () => {
  it('ranks items found by both searches above items only one found', () => {
    const fused = reciprocalRankFusion(
      [
        ['a', 'b', 'c'],
        ['c', 'd', 'a'],
      ],
      4,
    );
    expect(fused.map((f) => f.id)).toEqual(['a', 'c', 'b', 'd']);
    expect(fused[0].score).toBeCloseTo(1 / 61 + 1 / 63, 10);
  });
});

describe('citations', () => {
  const chunks = [hit(1, 'Refunds are accepted within thirty days of purchase.'), hit(2, 'Shipping takes two days inside the country.')];

  it('takes [n] markers in range', () => {
    expect(citationsOf('Within thirty days [1]. See also [7].', chunks)).toEqual([{ marker: 1, document_id: 'd1', chunk_id: 'c1' }]);
  });

  it('finds the chunk an extractive answer copied a sentence from, past the local model mark', () => {
    const answer =
      '[extractive summary by the built-in local model: sentences copied from the input, not generated] Shipping takes two days inside the country.';
    expect(citationsOf(answer, chunks)).toEqual([{ marker: 2, document_id: 'd2', chunk_id: 'c2' }]);
  });
});
