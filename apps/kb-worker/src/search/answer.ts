import type { KbChunkHit, KbCitation } from '@platform/messaging';

export const ANSWER_SYSTEM =
  'Answer the question using only the numbered sources below. Cite the sources you use with their numbers in square brackets, like [1] or [2][3]. ' +
  'If the sources do not contain the answer, say that you do not know.';

/** The user turn the answer model sees: the question, then each chunk as `[n] (document, heading) text`. */
export function answerPrompt(question: string, chunks: KbChunkHit[]): string {
  const sources = chunks.map((c, i) => `[${i + 1}] (${c.document_name}${c.position.heading ? `, ${c.position.heading}` : ''})\n${c.text}`).join('\n\n');
  return `Question: ${question}\n\nSources:\n${sources}`;
}

/**
 * The chunks an answer cites: its `[n]` markers, and (for extractive answers, which copy
 * sentences rather than cite) every chunk a sentence of the answer was copied from.
 */
export function citationsOf(answer: string, chunks: KbChunkHit[]): KbCitation[] {
  const cited = new Set<number>();
  for (const m of answer.matchAll(/\[(\d{1,3})\]/g)) {
    const n = Number(m[1]);
    if (n >= 1 && n <= chunks.length) cited.add(n);
  }
  // A leading bracketed note (the local model's "[extractive summary …]" mark) is not a sentence of the answer.
  const body = answer.replace(/^\[[^\]]{20,}\]\s*/, '');
  const sentences = body
    .split(/(?<=[.!?])\s+/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 20);
  chunks.forEach((chunk, i) => {
    const flat = chunk.text.replace(/\s+/g, ' ');
    if (sentences.some((s) => flat.includes(s.replace(/\s+/g, ' ')))) cited.add(i + 1);
  });
  return [...cited].sort((a, b) => a - b).map((marker) => ({ marker, document_id: chunks[marker - 1].document_id, chunk_id: chunks[marker - 1].chunk_id }));
}
