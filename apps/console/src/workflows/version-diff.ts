import { diffLines } from 'diff';

export interface DiffLine {
  kind: 'added' | 'removed' | 'same';
  text: string;
}

/** A value as the diff compares it: pretty-printed JSON, keys in the order they were written. */
export function pretty(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** The line diff of two values' pretty-printed JSON, one entry per line. */
export function lineDiff(before: unknown, after: unknown): DiffLine[] {
  const lines: DiffLine[] = [];
  for (const part of diffLines(pretty(before), pretty(after))) {
    const kind = part.added ? 'added' : part.removed ? 'removed' : 'same';
    for (const text of part.value.replace(/\n$/, '').split('\n')) lines.push({ kind, text });
  }
  return lines;
}
