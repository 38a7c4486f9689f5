/** `1.2 s`, `3 min 4 s`; `—` before the start; time so far while still running. */
export function duration(start: string | null, end: string | null, now = Date.now()): string {
  if (!start) return '—';
  const ms = (end ? Date.parse(end) : now) - Date.parse(start);
  if (ms < 1000) return `${Math.max(0, ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}
