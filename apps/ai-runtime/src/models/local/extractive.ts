import { contentWords, stem } from './text.js';

/** Every answer of the local generator starts with this, so nobody mistakes it for an LLM's text. */
export const EXTRACTIVE_MARK = '[extractive summary by the built-in local model: sentences copied from the input, not generated]';

/** Candidate sentences: titles, labels and source headers (no closing punctuation) only when the input has no real sentence. */
function sentences(text: string): string[] {
  const all = text
    .split(/(?<=[.!?])\s+|\n+/u)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => contentWords(s).length >= 3);
  const proper = all.filter((s) => /[.!?]["')\]]?$/.test(s));
  return proper.length ? proper : all;
}

/**
 * The built-in `local/extractive-summary` model: picks the input's most representative sentences
 * (by the frequency of their content words across the input, plus their overlap with `focus`, the
 * question when there is one) and returns them in their original order, after EXTRACTIVE_MARK.
 * It never invents text and never calls tools.
 */
export function extractiveSummary(input: string, focus: string, maxSentences = 3, maxChars = 1200): string {
  const list = sentences(input);
  if (!list.length) return `${EXTRACTIVE_MARK} (the input has no sentence to extract)`;
  const frequency = new Map<string, number>();
  for (const w of contentWords(input).map(stem)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const focusWords = new Set(contentWords(focus).map(stem));
  const scored = list.map((sentence, index) => {
    const words = contentWords(sentence).map(stem);
    const base = words.reduce((sum, w) => sum + Math.log(1 + (frequency.get(w) ?? 0)), 0) / Math.sqrt(words.length);
    const overlap = new Set(words.filter((w) => focusWords.has(w))).size;
    return { sentence, index, score: base + 3 * overlap };
  });
  const chosen = scored
    .filter((s) => !focusWords.size || s.sentence.toLowerCase() !== focus.trim().toLowerCase())
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, maxSentences)
    .sort((a, b) => a.index - b.index);
  let text = '';
  for (const { sentence } of chosen) {
    if (text && text.length + sentence.length + 1 > maxChars) break;
    text = text ? `${text} ${sentence}` : sentence;
  }
  return `${EXTRACTIVE_MARK} ${text.slice(0, maxChars)}`;
}
