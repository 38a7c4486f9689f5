/** The constant of reciprocal rank fusion (Cormack et al., 2009): damps the weight of the very top ranks. */
export const RRF_K = 60;

/**
 * Reciprocal rank fusion: each list gives an item 1 / (k + rank), ranks from 1; the sums decide.
 * Items found by both searches rise above those only one found. Ties keep first-seen order.
 */
export function reciprocalRankFusion(lists: string[][], limit: number, k = RRF_K): { id: string; score: number }[] {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  return [...scores]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
