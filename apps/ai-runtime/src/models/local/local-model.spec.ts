import { describe, expect, it } from '@jest/globals';
import { EXTRACTIVE_MARK, extractiveSummary } from './extractive.js';
import { LOCAL_EMBEDDING_DIMENSIONS, cosine, hashEmbedding } from './hash-embedder.js';

/** Sentence pairs written for this test: [sentence, its paraphrase, an unrelated sentence]. */
const TRIPLES: [string, string, string][] = [
  ['The invoice was paid two weeks late.', 'Payment of the invoice arrived two weeks after it was due.', 'Our cat sleeps on the warm windowsill.'],
  ['How do I reset my account password?', 'Steps to reset the password of my account', 'The river flooded the valley last spring.'],
  ['The server crashed because its disk was full.', 'A full disk made the server crash.', 'She baked bread with rye flour and seeds.'],
  [
    'Refunds are accepted within thirty days of purchase.',
    'You can get a refund up to thirty days after you purchase.',
    'The telescope revealed rings around the planet.',
  ],
  [
    'The train to Berlin departs at nine in the morning.',
    'At nine in the morning the Berlin train departs.',
    'Photosynthesis turns light into chemical energy.',
  ],
  ['Employees must submit expense reports monthly.', 'Every month employees submit their expense reports.', 'The volcano erupted after centuries of silence.'],
  [
    'The database backup runs every night at midnight.',
    'Each night at midnight the backup of the database runs.',
    'Jazz musicians improvise over chord changes.',
  ],
  [
    'Water boils at one hundred degrees Celsius at sea level.',
    'At sea level, water starts boiling at 100 degrees Celsius.',
    'The committee postponed the vote on the budget.',
  ],
];

describe('local embedding (feature hashing)', () => {
  it('is deterministic, 384-dimensional and L2-normalised', () => {
    const a = hashEmbedding('Knowledge bases answer questions with citations.');
    expect(a).toHaveLength(LOCAL_EMBEDDING_DIMENSIONS);
    expect(hashEmbedding('Knowledge bases answer questions with citations.')).toEqual(a);
    expect(Math.sqrt(a.reduce((s, v) => s + v * v, 0))).toBeCloseTo(1, 5);
    expect(hashEmbedding('the of and')).toEqual(new Array(LOCAL_EMBEDDING_DIMENSIONS).fill(0));
  });

  it('puts paraphrases closer than unrelated sentences, for every pair written for the test', () => {
    for (const [sentence, paraphrase, unrelated] of TRIPLES) {
      const base = hashEmbedding(sentence);
      const close = cosine(base, hashEmbedding(paraphrase));
      const far = cosine(base, hashEmbedding(unrelated));
      expect({ sentence, closer: close > far + 0.1 }).toEqual({ sentence, closer: true });
    }
  });
});

describe('local extractive summary', () => {
  it('copies the most relevant sentences in their order, after the mark', () => {
    const input = 'Invoices are due in 30 days. The office has a plant. Late invoices incur a fee of 2%. Invoices can be paid by card.';
    const summary = extractiveSummary(input, 'When are invoices due and what if late?', 2);
    expect(summary.startsWith(EXTRACTIVE_MARK)).toBe(true);
    expect(summary).toContain('Invoices are due in 30 days.');
    expect(summary).toContain('Late invoices incur a fee of 2%.');
    expect(summary).not.toContain('plant');
  });
});
