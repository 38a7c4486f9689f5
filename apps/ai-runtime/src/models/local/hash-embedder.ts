import { contentWords, stem } from './text.js';

export const LOCAL_EMBEDDING_DIMENSIONS = 384;

/** 32-bit FNV-1a: fast, stable across processes and versions (the vectors are stored). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function add(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // The bucket from the low bits, the sign from the top bit: collisions cancel on average instead of piling up.
  const sign = hash & 0x80000000 ? -1 : 1;
  vector[hash % LOCAL_EMBEDDING_DIMENSIONS] += sign * weight;
}

/**
 * The built-in `local/hash-embedding-384` model: a feature-hashing embedding (the "hashing trick"),
 * deterministic and offline. Features are each content word's stem (weight 1) and the character
 * trigrams of the word with boundary marks (`#in`, `ind`, …, `es#`; together weight 0.5, so
 * spelling variants and shared roots still meet), and adjacent stem pairs (weight 0.5). Term counts
 * are damped (1 + ln tf) and the vector is L2-normalised, so the dot product of two vectors is
 * their cosine similarity. Text without content words embeds to the zero vector.
 */
export function hashEmbedding(text: string): number[] {
  const vector = new Float64Array(LOCAL_EMBEDDING_DIMENSIONS);
  const stems = contentWords(text).map(stem);
  const counts = new Map<string, number>();
  const bump = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
  stems.forEach((s, i) => {
    bump(`w:${s}`);
    if (i > 0) bump(`b:${stems[i - 1]} ${s}`);
  });
  for (const [feature, count] of counts) add(vector, feature, (feature.startsWith('b:') ? 0.5 : 1) * (1 + Math.log(count)));
  const grams = new Map<string, number>();
  for (const s of stems) {
    const marked = `#${s}#`;
    const n = marked.length - 2;
    for (let i = 0; i < n; i++) {
      const gram = marked.slice(i, i + 3);
      grams.set(gram, (grams.get(gram) ?? 0) + 0.5 / n);
    }
  }
  for (const [gram, weight] of grams) add(vector, `g:${gram}`, weight);
  let norm = 0;
  for (const v of vector) norm += v * v;
  norm = Math.sqrt(norm);
  return Array.from(vector, (v) => (norm > 0 ? Math.round((v / norm) * 1e7) / 1e7 : 0));
}

export function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
