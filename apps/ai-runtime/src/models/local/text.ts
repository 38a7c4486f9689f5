/** Words that carry little meaning for matching; kept out of the local embedding and summary scores. */
const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto over under about as is are was were be been being am do does did ' +
    'have has had having it its this that these those there here i you he she we they me him her us them my your his our their what which who whom ' +
    'whose when where why how not no nor so than too very can could should would will shall may might must just also only own same such both each ' +
    'few more most other some any all up down out off again further once s t'
  ).split(' '),
);

/** Lower-cased words (letters and digits of any script), stopwords removed. */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.filter((w) => !STOPWORDS.has(w));
}

/**
 * A light suffix stripper (plural, -ing, -ed, -ly): enough for "indexes"/"indexing"/"indexed" to
 * meet, without a language model. Short words are kept whole.
 */
export function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ingly', 'edly', 'ing', 'ies', 'ied', 'ed', 'es', 'ly', 's']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' || suffix === 'ied' ? `${base}y` : base;
    }
  }
  return word;
}

/** Tokens for usage accounting of the local model: about four characters a token, as for English with BPE models. */
export function estimateTokens(text: string): number {
  return text.length === 0 ? 0 : Math.ceil(text.length / 4);
}
