export interface Chunk {
  ordinal: number;
  heading: string | null;
  text: string;
  /** Character offsets of `text` in the extracted document text. */
  start: number;
  end: number;
}

const HEADING = /^#{1,6}[ \t]+(.+?)[ \t#]*$/gm;

/** Where to cut a window that must end by `limit`: the last paragraph, line, sentence or word break after `from`. */
function cutPoint(text: string, from: number, limit: number): number {
  if (limit >= text.length) return text.length;
  const window = text.slice(from, limit);
  for (const pattern of [/\n\s*\n/g, /\n/g, /[.!?]\s/g, /\s/g]) {
    let last = -1;
    for (let m = pattern.exec(window); m; m = pattern.exec(window)) last = m.index + m[0].length;
    // A break in the first half would make a tiny chunk: only a break past the middle counts.
    if (last > window.length / 2) return from + last;
  }
  return limit;
}

/**
 * Splits text by its Markdown headings (HTML headings arrive as such), then each section into
 * windows of at most `size` characters that start `overlap` characters before the previous one
 * ended, cut at a paragraph, line, sentence or word break where possible. Deterministic: the same
 * text and settings give the same chunks, which is what lets an interrupted indexing resume.
 */
export function chunkText(text: string, size: number, overlap: number): Chunk[] {
  const sections: { heading: string | null; start: number; end: number }[] = [];
  let current: { heading: string | null; start: number } = { heading: null, start: 0 };
  for (const m of text.matchAll(HEADING)) {
    sections.push({ ...current, end: m.index });
    current = { heading: m[1].trim(), start: m.index };
  }
  sections.push({ ...current, end: text.length });

  const chunks: Chunk[] = [];
  for (const section of sections) {
    let start = section.start;
    while (start < section.end) {
      while (start < section.end && /\s/.test(text[start])) start++;
      if (start >= section.end) break;
      const end = cutPoint(text, start, Math.min(section.end, start + size));
      const body = text.slice(start, end).trimEnd();
      if (body.replace(/^#{1,6}[ \t]+.*$/m, '').trim())
        chunks.push({ ordinal: chunks.length, heading: section.heading, text: body, start, end: start + body.length });
      if (end >= section.end) break;
      const next = Math.max(start + 1, end - overlap);
      // Start the overlap at a word boundary.
      const space = text.indexOf(' ', next);
      start = space > 0 && space < end ? space + 1 : next;
    }
  }
  return chunks;
}
