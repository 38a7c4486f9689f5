import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IO_COUNTERS, type IoCounter } from '@platform/common';
import { REPO_ROOT, platformProcesses, readIoCounters, sleep, type IoCounts } from '@platform/testing';

/** Per workflow, per process, per counter: the most a typical run may cost. */
export type Budget = Record<string, Record<string, IoCounts>>;

/** The committed budget: raising a number here is a deliberate change, seen in review. */
export const BUDGET_FILE = 'apps/run/test/round-trip-budget.json';

export function readBudget(): Budget {
  const { $comment: _, ...budget } = JSON.parse(readFileSync(join(REPO_ROOT, BUDGET_FILE), 'utf8')) as Budget & { $comment?: unknown };
  return budget;
}

/** Every process's counts for the requests whose ids start with `prefix`. */
export async function countsOfRequests(prefix: string): Promise<Map<string, Record<string, IoCounts>>> {
  const all = await Promise.all(platformProcesses().map(async ([name, url]) => [name, (await readIoCounters(url, prefix)).requests] as const));
  return new Map(all);
}

/**
 * The counts once they stop changing: a run's tail (its events consumed, its usage fact
 * aggregated, the outbox row deleted) ends after `succeeded`. Unchanged over three readings a
 * third of a second apart, or whatever they are after `timeoutMs` (medians are robust to one
 * straggler anyway).
 */
export async function settledCounts(prefix: string, timeoutMs = 30_000): Promise<Map<string, Record<string, IoCounts>>> {
  const deadline = Date.now() + timeoutMs;
  let last = await countsOfRequests(prefix);
  let unchanged = 0;
  while (unchanged < 3 && Date.now() < deadline) {
    await sleep(333);
    const next = await countsOfRequests(prefix);
    unchanged = JSON.stringify([...next]) === JSON.stringify([...last]) ? unchanged + 1 : 0;
    last = next;
  }
  return last;
}

export interface Measured {
  process: string;
  counter: IoCounter;
  /** What a typical run costs: the median over the runs, so an occasional cache refresh or key verification does not count. */
  median: number;
  min: number;
  max: number;
}

/** Per process and counter, the median over the runs `requestIds` (a run that caused nothing there counts 0). */
export function perRun(counts: Map<string, Record<string, IoCounts>>, requestIds: string[]): Measured[] {
  const measured: Measured[] = [];
  for (const [process, requests] of counts) {
    for (const counter of IO_COUNTERS) {
      const values = requestIds.map((id) => requests[id]?.[counter] ?? 0).sort((a, b) => a - b);
      if (values[values.length - 1] === 0) continue;
      measured.push({ process, counter, median: values[Math.floor(values.length / 2)], min: values[0], max: values[values.length - 1] });
    }
  }
  return measured;
}

export interface Verdict {
  /** Counts past their budget: the test fails on them. */
  over: string[];
  /** Counts below their budget: a hint to lower it. */
  under: string[];
}

export function judge(workflow: string, measured: Measured[], budget: Record<string, IoCounts>): Verdict {
  const over: string[] = [];
  const under: string[] = [];
  const seen = new Set<string>();
  for (const m of measured) {
    seen.add(`${m.process}/${m.counter}`);
    const allowed = budget[m.process]?.[m.counter] ?? 0;
    if (m.median > allowed) over.push(`${workflow}: ${m.process} ${m.counter} is ${m.median} per run, budget ${allowed}`);
    else if (m.median < allowed) under.push(`${workflow}: ${m.process} ${m.counter} is ${m.median} per run, budget ${allowed}`);
  }
  for (const [process, counts] of Object.entries(budget))
    for (const [counter, allowed] of Object.entries(counts))
      if (allowed && !seen.has(`${process}/${counter}`)) under.push(`${workflow}: ${process} ${counter} is 0 per run, budget ${allowed}`);
  return { over, under };
}

const SHORT: Record<IoCounter, string> = {
  'db.roundTrips': 'db trips',
  'db.statements': 'db stmts',
  'nats.publishes': 'nats pub',
  'nats.requests': 'nats req',
  'nats.received': 'nats recv',
  'js.publishes': 'js pub',
  'js.deliveries': 'js deliv',
  'js.acks': 'js acks',
  'redis.commands': 'redis',
  'http.upstream': 'http up',
};

/** A table a reviewer reads: one row per process, the median per run in each column ("1 (0-3)" when runs differed). */
export function table(workflow: string, runs: number, measured: Measured[]): string {
  const counters = IO_COUNTERS.filter((c) => measured.some((m) => m.counter === c));
  const processes = [...new Set(measured.map((m) => m.process))];
  const cell = (process: string, counter: IoCounter) => {
    const m = measured.find((x) => x.process === process && x.counter === counter);
    if (!m) return '';
    return m.min === m.max ? String(m.median) : `${m.median} (${m.min}-${m.max})`;
  };
  const rows = [['process', ...counters.map((c) => SHORT[c])], ...processes.map((p) => [p, ...counters.map((c) => cell(p, c))])];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ');
  return [`${workflow}: IO per run, median of ${runs} runs (min-max where runs differed)`, ...rows.map(line)].join('\n');
}
