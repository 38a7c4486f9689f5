import { TopK } from './top-k.js';

/** One chunk's full-text data as PostgreSQL stores it: the lexemes of its tsvector and how many positions each has. */
export interface LexicalRow {
  lexemes: string[] | null;
  counts: number[] | null;
}

interface Postings {
  chunks: Int32Array;
  counts: Uint16Array;
}

/** PostgreSQL keeps at most 256 positions of a lexeme per tsvector. */
const MAX_POSITIONS = 256;
/** ts_rank's default weight of a position without setweight (class D). */
const D_WEIGHT = Math.fround(0.1);

/**
 * ts_rank's share of one query lexeme occurring `n` times in a chunk (calc_rank_or in PostgreSQL's
 * tsrank.c with every position of weight D), with its float4 arithmetic, so ties and near ties
 * order as they did when PostgreSQL ranked.
 */
function occurrenceRank(n: number): number {
  let resj = 0;
  for (let j = 0; j < Math.max(1, n); j++) resj = Math.fround(resj + Math.fround(D_WEIGHT / ((j + 1) * (j + 1))));
  return Math.fround(Math.fround(D_WEIGHT + resj) - D_WEIGHT) / 1.64493406685;
}
const OCCURRENCE_RANK = Array.from({ length: MAX_POSITIONS + 1 }, (_, n) => occurrenceRank(n));

/**
 * ts_rank(tsv, q) of an OR query of `size` lexemes, of which a chunk contains those with these
 * position counts (in the lexemes' sorted order): the value `rank` orders ties by.
 */
export function tsRankOr(counts: number[], size: number): number {
  let res = 0;
  for (const n of counts) res = Math.fround(res + OCCURRENCE_RANK[Math.min(MAX_POSITIONS, n)]);
  return Math.fround(res / size);
}

interface Candidate {
  i: number;
  score: number;
  rank: number;
}

/**
 * The full-text ranking over a knowledge base's cached chunks: an inverted index from each lexeme
 * to the chunks containing it. A query is ranked as the SQL did before (chunks.repository.ts
 * `fulltext`, still used for knowledge bases too large for the cache): every query lexeme counts
 * with its inverse document frequency ln((N + 1) / (df + 0.5)), a chunk scores the sum over the
 * lexemes it contains (any lexeme matches), ts_rank breaks ties, then the chunk id. The work is
 * proportional to the query lexemes' posting lists, not to the chunks matched: no row is re-read.
 */
export class LexicalIndex {
  private constructor(
    private readonly postings: Map<string, Postings>,
    readonly postingCount: number,
  ) {}

  static build(rows: LexicalRow[]): LexicalIndex {
    const lists = new Map<string, number[]>();
    let postingCount = 0;
    rows.forEach((row, i) => {
      const counts = row.counts ?? [];
      (row.lexemes ?? []).forEach((lexeme, k) => {
        let list = lists.get(lexeme);
        if (!list) lists.set(lexeme, (list = []));
        list.push(i, Math.min(MAX_POSITIONS, counts[k] ?? 1));
        postingCount++;
      });
    });
    const postings = new Map<string, Postings>();
    for (const [lexeme, list] of lists) {
      const chunks = new Int32Array(list.length / 2);
      const counts = new Uint16Array(list.length / 2);
      for (let k = 0; k < chunks.length; k++) {
        chunks[k] = list[2 * k];
        counts[k] = list[2 * k + 1];
      }
      postings.set(lexeme, { chunks, counts });
    }
    return new LexicalIndex(postings, postingCount);
  }

  /**
   * The best `limit` chunks (indexes into the snapshot) for the query's lexemes (as
   * to_tsvector('english', query) gives them), best first. `ids` breaks exact ties; `allowed`
   * (a query's document filter) leaves chunks out without changing the frequencies.
   */
  rank(lexemes: string[], size: number, ids: string[], allowed: ((i: number) => boolean) | null, limit: number): number[] {
    const terms = [...new Set(lexemes)]
      .sort()
      .map((lexeme) => this.postings.get(lexeme))
      .filter((p): p is Postings => p !== undefined);
    if (!terms.length || limit <= 0) return [];
    const score = new Float64Array(size);
    const rank = new Float32Array(size);
    const touched: number[] = [];
    for (const { chunks, counts } of terms) {
      const idf = Math.log((size + 1) / (chunks.length + 0.5));
      for (let k = 0; k < chunks.length; k++) {
        const i = chunks[k];
        if (allowed && !allowed(i)) continue;
        if (score[i] === 0) touched.push(i);
        score[i] += idf;
        rank[i] = rank[i] + OCCURRENCE_RANK[counts[k]];
      }
    }
    const better = (a: Candidate, b: Candidate) => (a.score !== b.score ? a.score > b.score : a.rank !== b.rank ? a.rank > b.rank : ids[a.i] < ids[b.i]);
    const top = new TopK<Candidate>(limit, better);
    for (const i of touched) top.push({ i, score: score[i], rank: Math.fround(rank[i] / terms.length) });
    return top.sorted().map((c) => c.i);
  }
}
