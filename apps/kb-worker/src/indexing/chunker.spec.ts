import { describe, expect, it } from '@jest/globals';
import { chunkText } from './chunker.js';

describe('chunkText', () => {
  const text = `# Intro\n\n${'Alpha beta gamma delta. '.repeat(40)}\n\n## Details\n\n${'Epsilon zeta eta theta. '.repeat(40)}`;

  it('splits by headings, then by size with overlap, recording headings and positions', () => {
    const chunks = chunkText(text, 300, 50);
    expect(chunks.length).toBeGreaterThan(4);
    expect(chunks.every((c) => c.text.length <= 300)).toBe(true);
    expect(new Set(chunks.map((c) => c.heading))).toEqual(new Set(['Intro', 'Details']));
    for (const c of chunks) expect(text.slice(c.start, c.end)).toBe(c.text);
    expect(chunks.map((c) => c.ordinal)).toEqual(chunks.map((_, i) => i));
    // Consecutive chunks of a section overlap.
    const intro = chunks.filter((c) => c.heading === 'Intro');
    expect(intro[1].start).toBeLessThan(intro[0].end);
  });

  it('is deterministic (what lets an interrupted indexing resume) and never splits inside a word', () => {
    expect(chunkText(text, 300, 50)).toEqual(chunkText(text, 300, 50));
    for (const c of chunkText(text, 300, 50)) expect(c.text).toMatch(/^(#|[A-Z])/);
  });

  it('gives no chunk for a text without content', () => {
    expect(chunkText('   \n\n  ', 300, 50)).toEqual([]);
    expect(chunkText('# Only a heading', 300, 50)).toEqual([]);
  });
});
