import { UsageError } from './cli-errors.js';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `500ms`, `30s`, `10m`, `1h`, `1d`, `1h30m`, or a bare number of seconds, as ms. */
export function parseDuration(text: string, option = '--timeout'): number {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== trimmed) {
    throw new UsageError(`${option}: '${text}' is not a duration (examples: 30s, 10m, 1h30m)`);
  }
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNITS[p[2]], 0);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
